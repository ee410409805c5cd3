// From a team's own host names to providers, through a loopback DNS server: chains, apex records, bad answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMatcher } from '../../src/catalog/matcher.js';
import { createDnsClient } from '../../src/dns/client.js';
import { discoverProviders, MAX_TXT_RECORDS } from '../../src/dns/discover.js';
import type { Dependency } from '../../src/model.js';
import { type DnsServer, startDnsServer } from '../helpers/dns-server.js';
import { testCatalog } from '../helpers/catalog.js';

const catalog = testCatalog([
  'atlassian',
  'aws',
  'cloudflare',
  'google-cloud',
  'google-workspace',
  'sendgrid',
  'stripe',
  'vercel',
]);
const matcher = buildMatcher(catalog);
let server: DnsServer;

const longChain = Object.fromEntries(
  Array.from({ length: 10 }, (_, i) => [`hop${i}.chain.example.net`, { CNAME: `hop${i + 1}.chain.example.net` }]),
);

beforeAll(async () => {
  server = await startDnsServer({
    zone: {
      'acme.com': {
        A: ['76.76.21.21'],
        NS: ['ns-1279.awsdns-31.org', 'ns-310.awsdns-38.com'],
        MX: ['1 aspmx.l.google.com', '5 alt1.aspmx.l.google.com'],
        TXT: [
          'v=spf1 include:_spf.google.com include:_spf.acme.com ~all',
          'atlassian-domain-verification=Z8cYjM1vZ0l6X6nX',
          'stripe-verification=5c3a1b2d',
          'v=DMARC1; p=none',
        ],
      },
      '_spf.acme.com': { TXT: ['v=spf1 include:amazonses.com include:sendgrid.net -all'] },
      'www.acme.com': { CNAME: 'cname.vercel-dns.com' },
      'cname.vercel-dns.com': { A: ['76.76.21.21'] },
      'api.acme.com': { CNAME: 'api-prod.acme-internal.net' },
      'api-prod.acme-internal.net': { CNAME: 'acme-prod-1234.eu-west-1.elb.amazonaws.com' },
      'acme-prod-1234.eu-west-1.elb.amazonaws.com': { A: ['52.18.0.10'] },
      'files.acme.com': { A: ['52.216.8.1'] },
      'intranet.acme.com': { A: ['10.0.3.4'], AAAA: ['fd00::4'] },
      'loop.acme.com': { CNAME: 'loop-b.acme.com' },
      'loop-b.acme.com': { CNAME: 'loop.acme.com' },
      'long.acme.com': { CNAME: 'hop0.chain.example.net' },
      ...longChain,
      'escaped.acme.com': { CNAME: 'bad name.example.com' },
      'dangling.acme.com': { CNAME: 'gone-app.example.net' },
      'noisy.org': { TXT: [...Array.from({ length: 250 }, (_, i) => `token-${i}=x`), 'stripe-verification=late'] },
      'www.noisy.org': { CNAME: 'cname.vercel-dns.com' },
    },
    faults: { 'broken.acme.com': 'servfail', 'slow.acme.com': 'timeout' },
  });
});
afterAll(() => server.close());

function hosts(...names: string[]): Dependency[] {
  return names.map((name, index) => ({
    ecosystem: 'domain',
    name,
    file: 'ops/domains.txt',
    line: index + 1,
    direct: true,
    via: [name],
  }));
}

async function discover(dependencies: Dependency[], options: { queryTimeoutMs?: number; deadlineMs?: number } = {}) {
  const client = createDnsClient({ server: server.address, queryTimeoutMs: 300, ...options });
  try {
    return await discoverProviders(dependencies, matcher, client);
  } finally {
    client.close();
  }
}

/** `provider: record → record` lines, so a failure shows what was found. */
function found(result: Awaited<ReturnType<typeof discover>>) {
  return result.dependencies.map(
    (dependency) =>
      `${dependency.file}:${dependency.line} ${matcher
        .match(dependency)
        .map((hit) => hit.provider)
        .join('+')}: ${dependency.dns?.map((record) => `${record.name} ${record.type} ${record.value}`).join(' → ')}`,
  );
}

describe('discoverProviders', () => {
  it('follows a CNAME chain hop by hop and matches every name in it, region included', async () => {
    const result = await discover(hosts('www.acme.com', 'api.acme.com'));
    expect(found(result)).toContain('ops/domains.txt:1 vercel: www.acme.com CNAME cname.vercel-dns.com');
    const api = result.dependencies.find((dependency) => dependency.name === 'api.acme.com');
    expect(api?.dns).toEqual([
      { name: 'api.acme.com', type: 'CNAME', value: 'api-prod.acme-internal.net' },
      { name: 'api-prod.acme-internal.net', type: 'CNAME', value: 'acme-prod-1234.eu-west-1.elb.amazonaws.com' },
    ]);
    expect(api && matcher.match(api)).toEqual([
      { provider: 'aws', component: { name: 'Elastic Load Balancing', region: 'eu-west-1' } },
    ]);
    expect(result.problems).toEqual([]);
  });

  it("reads the registrable domain's NS, MX and TXT once, with SPF includes followed one level", async () => {
    const result = await discover(hosts('www.acme.com', 'api.acme.com'));
    const lines = found(result);
    expect(lines).toEqual(
      expect.arrayContaining([
        'ops/domains.txt:1 aws: acme.com NS ns-1279.awsdns-31.org',
        'ops/domains.txt:1 google-workspace: acme.com MX aspmx.l.google.com',
        'ops/domains.txt:1 aws: acme.com SPF include:_spf.acme.com → _spf.acme.com SPF include:amazonses.com',
        'ops/domains.txt:1 sendgrid: acme.com SPF include:_spf.acme.com → _spf.acme.com SPF include:sendgrid.net',
        'ops/domains.txt:1 atlassian: acme.com TXT atlassian-domain-verification=Z8cYjM1vZ0l6X6nX',
        'ops/domains.txt:1 stripe: acme.com TXT stripe-verification=5c3a1b2d',
      ]),
    );
    // One piece of evidence per component: the second NS and MX, and Google's SPF include after its MX, say nothing
    // new; an include the catalog knows is not followed further.
    expect(lines.filter((line) => line.includes(' NS '))).toHaveLength(1);
    expect(lines.some((line) => line.includes('include:_spf.google.com'))).toBe(false);
    expect(server.log.some((entry) => entry.name === '_spf.google.com')).toBe(false);
  });

  it('matches addresses against the published ranges only when no name in the chain named a provider', async () => {
    const result = await discover(hosts('files.acme.com', 'www.acme.com'));
    expect(found(result)).toContain('ops/domains.txt:1 aws: files.acme.com A 52.216.8.1');
    const files = result.dependencies.find((dependency) => dependency.name === 'files.acme.com');
    expect(files && matcher.match(files)).toEqual([
      { provider: 'aws', component: { name: 'Amazon Simple Storage Service', region: 'us-east-1' } },
    ]);
    // www's CNAME already named Vercel: its addresses are never asked.
    const addressQuestions = server.log.filter((entry) => entry.type === 'A' || entry.type === 'AAAA');
    expect(addressQuestions.some((entry) => entry.name === 'cname.vercel-dns.com')).toBe(false);
  });

  it('leaves names that already name a provider alone', async () => {
    const before = server.log.length;
    const result = await discover(hosts('acme.vercel.app', 'api.stripe.com'));
    expect(result.dependencies).toEqual([]);
    expect(server.log.length).toBe(before);
  });

  it('reports internal addresses as internal and never matches them', async () => {
    const result = await discover(hosts('intranet.acme.com'));
    expect(result.dependencies.filter((dependency) => dependency.name === 'intranet.acme.com')).toEqual([]);
    expect(result.problems).toContainEqual({
      file: 'ops/domains.txt',
      line: 1,
      message:
        'DNS: intranet.acme.com resolves to 10.0.3.4, fd00::4, internal addresses; not matched against any provider',
    });
  });

  it('notes each failure at its line and goes on with the rest', async () => {
    const result = await discover(hosts('broken.acme.com', 'missing.acme.com', 'slow.acme.com', 'www.acme.com'));
    expect(result.problems).toEqual(
      expect.arrayContaining([
        {
          file: 'ops/domains.txt',
          line: 1,
          message: 'DNS: the DNS server failed (SERVFAIL) on the CNAME of broken.acme.com; its provider is unknown',
        },
        { file: 'ops/domains.txt', line: 2, message: 'DNS: missing.acme.com does not exist in DNS (NXDOMAIN)' },
        {
          file: 'ops/domains.txt',
          line: 3,
          message: `DNS: no answer within 0.3 s for the CNAME of slow.acme.com (asked ${server.address}); its provider is unknown`,
        },
      ]),
    );
    expect(found(result)).toContain('ops/domains.txt:4 vercel: www.acme.com CNAME cname.vercel-dns.com');
  });

  it('stops at a CNAME loop, a chain longer than 8 hops, a target that is no host name, and a dangling CNAME', async () => {
    const result = await discover(hosts('loop.acme.com', 'long.acme.com', 'escaped.acme.com', 'dangling.acme.com'));
    const messages = result.problems.map((problem) => `${problem.line}: ${problem.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        '1: DNS: CNAME loop: loop.acme.com → loop-b.acme.com → loop.acme.com; not followed further',
        '2: DNS: the CNAME chain of long.acme.com is longer than 8 hops; the first 8 were matched',
        '3: DNS: escaped.acme.com has a CNAME to "bad name.example.com", which is not a valid host name; not followed',
        '4: DNS: dangling.acme.com has a CNAME chain that ends at gone-app.example.net, which does not exist in DNS (NXDOMAIN): a dangling CNAME',
      ]),
    );
    // The loop and the long chain each stopped after a bounded number of CNAME questions.
    expect(
      server.log.filter((entry) => entry.name.endsWith('chain.example.net') && entry.type === 'CNAME'),
    ).toHaveLength(8);
  });

  it(`reads at most ${MAX_TXT_RECORDS} TXT records of a name and says so`, async () => {
    const result = await discover(hosts('www.noisy.org'));
    expect(result.problems).toContainEqual({
      file: 'ops/domains.txt',
      line: 1,
      message: `DNS: noisy.org has 251 TXT records; only the first ${MAX_TXT_RECORDS} were read`,
    });
    expect(found(result).some((line) => line.includes('stripe-verification=late'))).toBe(false);
    expect(found(result)).toContain('ops/domains.txt:1 vercel: www.noisy.org CNAME cname.vercel-dns.com');
  });

  it('sums up the names the total deadline cut off in one note per file', async () => {
    const names = Array.from({ length: 7 }, (_, i) => `h${i}.slow.acme.com`);
    const faults = Object.fromEntries([...names, 'acme.com'].map((name) => [name, 'timeout' as const]));
    const silent = await startDnsServer({ zone: {}, faults });
    const client = createDnsClient({ server: silent.address, queryTimeoutMs: 10_000, deadlineMs: 300 });
    try {
      const result = await discoverProviders(hosts(...names), matcher, client);
      expect(result.problems).toHaveLength(1);
      expect(result.problems[0]?.message).toMatch(
        /^DNS: the lookup deadline passed before 8 names were resolved: h0\.slow\.acme\.com, .*, and 3 more; their providers are unknown$/,
      );
    } finally {
      client.close();
      await silent.close();
    }
  });
});
