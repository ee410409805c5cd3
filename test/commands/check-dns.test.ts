// DNS detection through the real binary, against a loopback DNS server: on by default, --resolver and
// DOWNSTACK_RESOLVER pick the server, --no-resolve and DOWNSTACK_OFFLINE=1 skip it with one note.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DnsServer, startDnsServer } from '../helpers/dns-server.js';
import { writeTestCatalog } from '../helpers/catalog.js';
import { type CliOptions, runCli } from '../helpers/cli.js';

const STACK = 'test/fixtures/dns/stack/domains.txt';
const DNS_CATALOG = writeTestCatalog([
  'atlassian',
  'aws',
  'cloudflare',
  'google-cloud',
  'google-workspace',
  'sendgrid',
  'stripe',
  'vercel',
]);
const env = (extra: Record<string, string> = {}): CliOptions => ({
  catalog: DNS_CATALOG,
  online: true,
  env: extra,
});
const index = () => ['--index', mkdtempSync(join(tmpdir(), 'downstack-dns-index-')), '--no-snapshot'];
let server: DnsServer;

beforeAll(async () => {
  server = await startDnsServer({
    zone: {
      'acme.com': {
        NS: ['ns-1279.awsdns-31.org'],
        MX: ['1 aspmx.l.google.com'],
        TXT: ['v=spf1 include:sendgrid.net ~all', 'stripe-verification=5c3a1b2d'],
      },
      'www.acme.com': { CNAME: 'cname.vercel-dns.com' },
      'cname.vercel-dns.com': { A: ['76.76.21.21'] },
      'api.acme.com': { CNAME: 'acme-prod-1234.eu-west-1.elb.amazonaws.com' },
      'files.acme.com': { A: ['52.216.8.1'] },
      'intranet.acme.com': { A: ['10.0.3.4'] },
    },
    faults: { 'broken.acme.com': 'servfail' },
  });
});
afterAll(() => server.close());

describe('downstack check with DNS detection', () => {
  it("finds the providers behind a team's own hosts and says how, line by line", async () => {
    const run = await runCli(['check', STACK, ...index(), '--resolver', server.address], env());
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('← domains.txt:2 www.acme.com → CNAME cname.vercel-dns.com');
    // The table shows what fits a line and counts the rest; the Markdown table gives each piece of evidence whole.
    expect(run.stdout).toContain('← domains.txt:2 acme.com → NS ns-1279.awsdns-31.org, +2 more');
    const markdown = await runCli(
      ['check', STACK, ...index(), '--resolver', server.address, '--format', 'markdown'],
      env(),
    );
    expect(markdown.stdout).toContain(
      '`domains.txt:3 api.acme.com → CNAME acme-prod-1234.eu-west-1.elb.amazonaws.com`',
    );
    expect(markdown.stdout).toContain('`domains.txt:4 files.acme.com → A 52.216.8.1`');
    expect(run.stdout).toContain('← domains.txt:2 acme.com → SPF include:sendgrid.net');
    expect(run.stderr).toContain(
      `${STACK}:5: DNS: intranet.acme.com resolves to 10.0.3.4, an internal address; not matched against any provider`,
    );
    expect(run.stderr).toContain(
      `${STACK}:6: DNS: the DNS server failed (SERVFAIL) on the CNAME of broken.acme.com; its provider is unknown`,
    );
  });

  it('puts the chain in JSON as evidence[].dns, and the run summary under dns', async () => {
    const run = await runCli(
      ['check', STACK, ...index(), '--format', 'json'],
      env({ DOWNSTACK_RESOLVER: server.address }),
    );
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    const vercel = report.providers.find((provider: { id: string }) => provider.id === 'vercel');
    expect(vercel.evidence).toEqual([
      expect.objectContaining({
        name: 'www.acme.com',
        file: STACK,
        line: 2,
        dns: [{ name: 'www.acme.com', type: 'CNAME', value: 'cname.vercel-dns.com' }],
      }),
    ]);
    const aws = report.providers.find((provider: { id: string }) => provider.id === 'aws');
    expect(aws.components).toEqual(
      expect.arrayContaining([{ name: 'Elastic Load Balancing', region: 'eu-west-1' }, { name: 'Amazon Route 53' }]),
    );
    expect(report.dns).toMatchObject({ names: 6, server: server.address });
    expect(report.inputs[0].errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ line: 6, message: expect.stringMatching(/SERVFAIL/) })]),
    );
  });

  it('skips lookups with one note, never an error, under DOWNSTACK_OFFLINE=1 or --no-resolve', async () => {
    const before = server.log.length;
    const offline = await runCli(
      ['check', STACK, ...index()],
      env({ DOWNSTACK_OFFLINE: '1', DOWNSTACK_RESOLVER: server.address }),
    );
    const off = await runCli(['check', STACK, ...index(), '--no-resolve', '--resolver', server.address], env());
    expect(server.log.length).toBe(before);
    for (const [run, reason] of [
      [offline, 'DOWNSTACK_OFFLINE=1'],
      [off, '--no-resolve'],
    ] as const) {
      expect(run.code).toBe(0);
      expect(run.stderr.trim()).toBe(
        `note: DNS lookups are off (${reason}): 5 domains that name no provider were matched by name only`,
      );
    }
  });

  it('refuses a resolver that is not an IP address, as a usage error', async () => {
    const run = await runCli(['check', STACK, ...index(), '--resolver', 'dns.google'], env());
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--resolver "dns.google" is not a DNS server address');
  });

  it('explain shows the DNS answers behind a provider', async () => {
    const run = await runCli(['explain', 'vercel', STACK, '--resolver', server.address], env());
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('www.acme.com → CNAME cname.vercel-dns.com  [direct]  (line 2)');
  });
});
