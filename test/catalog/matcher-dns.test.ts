// DNS answers as evidence: the last record of a dependency's chain is matched by its kind's rules.
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/loader.js';
import { buildMatcher, exposuresFor } from '../../src/catalog/matcher.js';
import { loadIpRanges } from '../../src/dns/ip-ranges.js';
import type { Dependency, DnsRecord } from '../../src/model.js';
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

function withDns(name: string, ...dns: DnsRecord[]): Dependency {
  return { ecosystem: 'domain', name, file: 'domains.txt', line: 3, direct: true, via: [name], dns };
}

describe('matching DNS answers', () => {
  it('a CNAME target the catalog has a CNAME rule for names the component the team uses', () => {
    const hits = matcher.match(
      withDns('www.acme.com', { name: 'www.acme.com', type: 'CNAME', value: 'cname.vercel-dns.com' }),
    );
    // Without the CNAME rule the target would match vercel-dns.com, Vercel's DNS product.
    expect(hits).toEqual([{ provider: 'vercel', component: { name: 'Edge Network' } }]);
  });

  it('a CNAME target without a CNAME rule is matched like any host, region included', () => {
    const hits = matcher.match(
      withDns(
        'api.acme.com',
        { name: 'api.acme.com', type: 'CNAME', value: 'acme-prod.trafficmanager.example.org' },
        { name: 'acme-prod.trafficmanager.example.org', type: 'CNAME', value: 'acme-1234.eu-west-1.elb.amazonaws.com' },
      ),
    );
    expect(hits).toEqual([{ provider: 'aws', component: { name: 'Elastic Load Balancing', region: 'eu-west-1' } }]);
  });

  it('name servers, mail exchangers and SPF includes have rules of their own, with * inside a label', () => {
    expect(
      matcher.match(withDns('acme.com', { name: 'acme.com', type: 'NS', value: 'ns-1279.awsdns-31.org' })),
    ).toEqual([{ provider: 'aws', component: { name: 'Amazon Route 53' } }]);
    expect(matcher.match(withDns('acme.com', { name: 'acme.com', type: 'NS', value: 'ns1.vercel-dns.com' }))).toEqual([
      { provider: 'vercel' },
    ]);
    expect(
      matcher.match(withDns('acme.com', { name: 'acme.com', type: 'MX', value: 'alt2.aspmx.l.google.com' })),
    ).toEqual([{ provider: 'google-workspace', component: { name: 'Gmail' } }]);
    expect(
      matcher.match(
        withDns('acme.com', { name: 'acme.com', type: 'MX', value: 'inbound-smtp.eu-west-1.amazonaws.com' }),
      ),
    ).toEqual([{ provider: 'aws', component: { name: 'Amazon Simple Email Service', region: 'eu-west-1' } }]);
    expect(
      matcher.match(withDns('acme.com', { name: 'acme.com', type: 'SPF', value: 'include:u123.wl.sendgrid.net' })),
    ).toEqual([{ provider: 'sendgrid' }]);
    // An NS rule does not answer for an MX record: each kind has its own rules.
    expect(
      matcher.match(withDns('acme.com', { name: 'acme.com', type: 'MX', value: 'ns-1279.awsdns-31.org' })),
    ).toEqual([]);
  });

  it('a TXT record matches a verification prefix without regard to case', () => {
    expect(
      matcher.match(
        withDns('acme.com', { name: 'acme.com', type: 'TXT', value: 'Atlassian-Domain-Verification=abc123' }),
      ),
    ).toEqual([{ provider: 'atlassian' }]);
    expect(matcher.match(withDns('acme.com', { name: 'acme.com', type: 'TXT', value: 'v=DMARC1; p=none' }))).toEqual(
      [],
    );
  });

  it('an address in a published range names the provider, the component that claims the service, and the region', () => {
    expect(
      matcher.match(withDns('files.acme.com', { name: 'files.acme.com', type: 'A', value: '52.216.8.1' })),
    ).toEqual([{ provider: 'aws', component: { name: 'Amazon Simple Storage Service', region: 'us-east-1' } }]);
    expect(matcher.match(withDns('acme.com', { name: 'acme.com', type: 'A', value: '76.76.21.21' }))).toEqual([
      { provider: 'vercel', component: { name: 'Edge Network' } },
    ]);
    expect(matcher.match(withDns('app.acme.com', { name: 'app.acme.com', type: 'A', value: '34.23.0.5' }))).toEqual([
      { provider: 'google-cloud', region: 'us-east1' },
    ]);
    expect(
      matcher.match(withDns('cdn.acme.com', { name: 'cdn.acme.com', type: 'AAAA', value: '2606:4700::6810:1' })),
    ).toEqual([{ provider: 'cloudflare' }]);
  });

  it('never matches private or reserved addresses, nor ranges of providers the catalog does not hold', () => {
    for (const value of [
      '10.0.3.4',
      '192.168.1.10',
      '172.16.0.1',
      '100.64.0.1',
      '127.0.0.1',
      'fd00::1',
      '::ffff:10.0.0.1',
    ])
      expect(matcher.match(withDns('intra.acme.com', { name: 'intra.acme.com', type: 'A', value }))).toEqual([]);
    // 151.101.0.0/16 is Fastly's; this catalog has no Fastly.
    expect(matcher.match(withDns('cdn.acme.com', { name: 'cdn.acme.com', type: 'A', value: '151.101.1.1' }))).toEqual(
      [],
    );
  });

  it('a regional address that names no component gives the exposure its region', () => {
    const dependency = withDns('app.acme.com', { name: 'app.acme.com', type: 'A', value: '34.23.0.5' });
    const { exposures } = exposuresFor([dependency], matcher, catalog);
    expect(exposures).toMatchObject([
      { provider: 'google-cloud', wholeProvider: true, wholeProviderRegions: ['us-east1'] },
    ]);
  });
});

describe('the built-in catalog and the bundled ranges', () => {
  it('names only address services that data/ip-ranges.json publishes, for providers it holds', () => {
    const ranges = loadIpRanges();
    const published = new Set(ranges.labels.map((label) => `${label.provider}/${label.service}`));
    const builtIn = loadCatalog();
    const missing: string[] = [];
    for (const provider of builtIn.providers.values())
      for (const component of provider.components)
        for (const service of component.match?.dns?.ip ?? [])
          if (service !== '*' && !published.has(`${provider.id}/${service}`))
            missing.push(`${provider.id}: ${component.name}: ${service}`);
    expect(missing).toEqual([]);
    for (const label of ranges.labels) expect(builtIn.providers.has(label.provider), label.provider).toBe(true);
  });
});
