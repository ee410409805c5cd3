// The bundled cloud ranges: published prefixes map to provider, service and region; internal addresses never do.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isInternalAddress, loadIpRanges } from '../../src/dns/ip-ranges.js';

const ranges = loadIpRanges();

describe('the bundled cloud address ranges', () => {
  it('names provider, service and region, the most specific published entry winning', () => {
    // 52.216.0.0/15 is published for S3 in us-east-1 and again, wider, under AMAZON.
    expect(ranges.lookup('52.216.8.1')).toEqual({ provider: 'aws', service: 'S3', region: 'us-east-1' });
    expect(ranges.lookup('13.32.0.1')).toEqual({ provider: 'aws', service: 'CLOUDFRONT', region: '' });
    expect(ranges.lookup('34.23.0.5')).toEqual({
      provider: 'google-cloud',
      service: 'Google Cloud',
      region: 'us-east1',
    });
    expect(ranges.lookup('13.107.246.10')).toMatchObject({ provider: 'azure', service: 'AzureFrontDoor.Frontend' });
    expect(ranges.lookup('104.16.1.1')).toEqual({ provider: 'cloudflare', service: '', region: '' });
    expect(ranges.lookup('151.101.65.1')).toEqual({ provider: 'fastly', service: '', region: '' });
    expect(ranges.lookup('76.76.21.21')).toEqual({ provider: 'vercel', service: '', region: '' });
  });

  it('reads IPv6 and IPv4-mapped addresses', () => {
    expect(ranges.lookup('2606:4700::6810:1')?.provider).toBe('cloudflare');
    expect(ranges.lookup('2a04:4e42::1')?.provider).toBe('fastly');
    expect(ranges.lookup('::ffff:52.216.8.1')).toMatchObject({ provider: 'aws', service: 'S3' });
  });

  it('answers nothing for addresses outside every range and for text that is no address', () => {
    expect(ranges.lookup('8.8.8.8')).toBeUndefined();
    expect(ranges.lookup('0.0.0.0')).toBeUndefined();
    expect(ranges.lookup('255.255.255.255')).toBeUndefined();
    expect(ranges.lookup('not-an-ip')).toBeUndefined();
  });

  it('says where each list came from and how old it is', () => {
    const providers = new Set(ranges.sources.map((source) => source.provider));
    expect([...providers].sort()).toEqual(['aws', 'azure', 'cloudflare', 'fastly', 'google-cloud', 'vercel']);
    for (const source of ranges.sources) {
      expect(source.url).toMatch(/^https:\/\//);
      expect(source.published).not.toBe('');
      expect(source.prefixes).toBeGreaterThan(0);
    }
  });
});

describe('isInternalAddress', () => {
  it('private, shared, loopback, link-local, unique-local and documentation addresses are internal', () => {
    for (const address of [
      '10.1.2.3',
      '172.31.255.1',
      '192.168.0.1',
      '100.64.1.1',
      '127.0.0.1',
      '169.254.169.254',
      '192.0.2.10',
      '0.0.0.0',
      'fd12::1',
      'fe80::1',
      '::1',
      '2001:db8::1',
      '::ffff:192.168.1.1',
    ])
      expect(isInternalAddress(address), address).toBe(true);
  });

  it('public addresses are not', () => {
    for (const address of ['8.8.8.8', '76.76.21.21', '2606:4700::1'])
      expect(isInternalAddress(address), address).toBe(false);
  });
});

describe('the start-up path', () => {
  it('loads neither the resolver nor the address parser until an address needs matching (fresh process, the build)', () => {
    const dist = (path: string) => JSON.stringify(fileURLToPath(new URL(`../../dist/${path}`, import.meta.url)));
    const script = `
      const { createRequire } = await import('node:module');
      await import(${dist('cli.js')});
      const { buildMatcher } = await import(${dist('catalog/matcher.js')});
      const { loadCatalog } = await import(${dist('catalog/loader.js')});
      const ipaddr = () => Object.keys(createRequire(import.meta.url).cache).some((key) => key.includes('ipaddr.js'));
      const resolver = () => process.moduleLoadList.some((name) => name.includes('dns/promises'));
      const matcher = buildMatcher(loadCatalog());
      const domain = { ecosystem: 'domain', name: 'api.stripe.com', file: 'x', direct: true, via: [] };
      matcher.match(domain);
      const before = { ipaddr: ipaddr(), resolver: resolver() };
      matcher.match({ ...domain, dns: [{ name: 'acme.com', type: 'A', value: '76.76.21.21' }] });
      console.log(JSON.stringify({ before, after: { ipaddr: ipaddr(), resolver: resolver() } }));`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(output)).toEqual({
      before: { ipaddr: false, resolver: false },
      after: { ipaddr: true, resolver: false },
    });
  });
});
