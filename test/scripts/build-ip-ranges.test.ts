// The maintainer script that builds data/ip-ranges.json, run on small lists in the providers' published formats.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IpRanges, loadIpRanges } from '../../src/dns/ip-ranges.js';

const FIXTURES = 'test/fixtures/dns/ranges';
const dir = mkdtempSync(join(tmpdir(), 'downstack-ranges-'));
let ranges: IpRanges;

beforeAll(async () => {
  const out = join(dir, 'ip-ranges.json');
  await promisify(execFile)(process.execPath, [
    'scripts/build-ip-ranges.js',
    ...['--aws', `${FIXTURES}/ip-ranges.json`, '--google', `${FIXTURES}/cloud.json`],
    ...['--azure', `${FIXTURES}/ServiceTags_Public.json`, '--fastly', `${FIXTURES}/public-ip-list.json`],
    ...['--cloudflare-v4', `${FIXTURES}/ips-v4`, '--cloudflare-v6', `${FIXTURES}/ips-v6`],
    ...['--via', 'aws=a copy in a test fixture', '--published', 'fastly=2026-08-22', '--out', out],
  ]);
  ranges = loadIpRanges(out);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('build-ip-ranges', () => {
  it('keeps the innermost published prefix at every address, and the more specific label of an equal one', () => {
    expect(ranges.lookup('3.1.0.1')).toEqual({ provider: 'aws', service: 'AMAZON', region: 'us-east-1' });
    // 3.5.0.0/19 is listed under AMAZON and under S3: S3 says more.
    expect(ranges.lookup('3.5.0.1')).toEqual({ provider: 'aws', service: 'S3', region: 'us-east-1' });
    expect(ranges.lookup('3.5.16.7')).toEqual({ provider: 'aws', service: 'EC2', region: 'us-east-1' });
    // Past the nested EC2 /24 the enclosing S3 /19 resumes, and past that the AMAZON /9.
    expect(ranges.lookup('3.5.17.1')).toMatchObject({ service: 'S3' });
    expect(ranges.lookup('3.5.32.1')).toMatchObject({ service: 'AMAZON' });
    expect(ranges.lookup('13.33.255.255')).toEqual({ provider: 'aws', service: 'CLOUDFRONT', region: '' });
    expect(ranges.lookup('3.128.0.1')).toBeUndefined();
  });

  it('reads IPv6 prefixes of every provider', () => {
    expect(ranges.lookup('2600:1f18:4000::1')).toMatchObject({ provider: 'aws', service: 'EC2' });
    expect(ranges.lookup('2600:1f18::1')).toMatchObject({ provider: 'aws', service: 'AMAZON' });
    expect(ranges.lookup('2600:1900:4000::1')).toEqual({
      provider: 'google-cloud',
      service: 'Google Cloud',
      region: 'us-central1',
    });
    expect(ranges.lookup('2606:4700::1')?.provider).toBe('cloudflare');
    expect(ranges.lookup('2a04:4e42::1')?.provider).toBe('fastly');
  });

  it('takes Google scopes as regions (global as none), and Azure service tags with their region over AzureCloud', () => {
    expect(ranges.lookup('34.23.1.1')).toEqual({
      provider: 'google-cloud',
      service: 'Google Cloud',
      region: 'us-east1',
    });
    expect(ranges.lookup('35.190.0.1')).toEqual({ provider: 'google-cloud', service: 'Google Cloud', region: '' });
    expect(ranges.lookup('20.50.2.9')).toEqual({ provider: 'azure', service: 'AppService', region: 'westeurope' });
    expect(ranges.lookup('20.50.3.9')).toEqual({ provider: 'azure', service: '', region: 'westeurope' });
    expect(ranges.lookup('13.107.246.1')).toEqual({
      provider: 'azure',
      service: 'AzureFrontDoor.Frontend',
      region: '',
    });
    // Tags that name no service a team's host points at are left out.
    expect(ranges.lookup('4.145.74.53')).toBeUndefined();
  });

  it('records each source with its official URL, its date and how it was obtained', () => {
    expect(ranges.sources.find((source) => source.provider === 'aws')).toEqual({
      provider: 'aws',
      url: 'https://ip-ranges.amazonaws.com/ip-ranges.json',
      published: '2026-08-22T15:17:05Z',
      prefixes: 7,
      via: 'a copy in a test fixture',
    });
    expect(ranges.sources.find((source) => source.provider === 'google-cloud')?.published).toBe('2026-08-22T10:12:38Z');
    expect(ranges.sources.find((source) => source.provider === 'azure')?.published).toBe('changeNumber 360');
    expect(ranges.sources.find((source) => source.provider === 'fastly')?.published).toBe('2026-08-22');
    expect(ranges.sources.find((source) => source.provider === 'vercel')?.url).toMatch(
      /^https:\/\/vercel\.com\/docs\//,
    );
  });
});
