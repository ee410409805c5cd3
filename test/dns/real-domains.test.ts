// What DNS detection finds for four real open-source projects, their published DNS served from loopback (the facts
// come from their public DNS-as-code repositories: see the _sources of the zone fixture). docs/dns.md shows the same.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/loader.js';
import { buildMatcher } from '../../src/catalog/matcher.js';
import { createDnsClient } from '../../src/dns/client.js';
import { discoverProviders } from '../../src/dns/discover.js';
import { parseDomainList } from '../../src/parsers/domain-list.js';
import { evidenceText } from '../../src/report/locate.js';
import { type DnsServer, type ZoneEntry, startDnsServer } from '../helpers/dns-server.js';

const DIR = 'test/fixtures/dns/real';
const catalog = loadCatalog();
const matcher = buildMatcher(catalog);
let server: DnsServer;
let found: Map<string, string[]>;
let notes: string[];

beforeAll(async () => {
  const { zone } = JSON.parse(readFileSync(`${DIR}/zones.json`, 'utf8')) as { zone: Record<string, ZoneEntry> };
  server = await startDnsServer({ zone });
  const { dependencies } = parseDomainList(readFileSync(`${DIR}/domains.txt`, 'utf8'), 'domains.txt');
  const client = createDnsClient({ server: server.address });
  try {
    const result = await discoverProviders(dependencies, matcher, client);
    found = new Map();
    for (const dependency of result.dependencies)
      for (const hit of matcher.match(dependency)) {
        const label = `${hit.provider}${hit.component ? ` / ${hit.component.name}` : ''}`;
        found.set(label, [...(found.get(label) ?? []), evidenceText(dependency)]);
      }
    notes = result.problems.map((problem) => `${problem.file}:${problem.line}: ${problem.message}`);
  } finally {
    client.close();
  }
});
afterAll(() => server.close());

describe('DNS detection on real public domains (published DNS, served from loopback)', () => {
  it('kubernetes.io: Google Workspace mail, versioned docs on Netlify, a Slack tool on Google Cloud', () => {
    expect(found.get('google-workspace / Gmail')).toContain('domains.txt:2 kubernetes.io → MX aspmx.l.google.com');
    expect(found.get('google-workspace')).toContain(
      'domains.txt:2 kubernetes.io → TXT google-site-verification=oPORCoq9XU6CmaR7G_bV00CLmEz-wLGOL7SXpeEuTt8',
    );
    expect(found.get('netlify / Content Delivery Network')).toContain(
      'domains.txt:4 v1-29.docs.kubernetes.io → CNAME kubernetes.netlify.app',
    );
    expect(found.get('google-cloud')).toContain('domains.txt:6 slack-infra.kubernetes.io → A 34.107.195.71');
  });

  it('etcd.io: www on Netlify, mail.etcd.io a Google custom URL, a playground in us-west1', () => {
    expect(found.get('netlify / Content Delivery Network')).toContain(
      'domains.txt:8 www.etcd.io → CNAME etcd.netlify.com',
    );
    expect(found.get('google-workspace')).toContain('domains.txt:9 mail.etcd.io → CNAME ghs.googlehosted.com');
    expect(found.get('google-cloud')).toEqual(
      expect.arrayContaining([
        'domains.txt:9 mail.etcd.io → CNAME ghs.googlehosted.com',
        'domains.txt:10 play.etcd.io → A 35.230.70.199',
      ]),
    );
    // The apex points at 75.2.60.5, Netlify's load balancer, which sits in AWS Global Accelerator's published range:
    // addresses name the network, not the service behind it.
    expect(found.get('aws')).toContain('domains.txt:7 etcd.io → A 75.2.60.5');
  });

  it('crates.io: Route 53, Mailgun for mail, Statuspage for status.crates.io, GitHub Pages for doc.crates.io', () => {
    expect(found.get('aws / Amazon Route 53')).toContain('domains.txt:11 crates.io → NS ns-1016.awsdns-63.net');
    expect(found.get('mailgun / Inbound')).toContain('domains.txt:11 crates.io → MX mxa.mailgun.org');
    expect(found.get('mailgun / Outbound Delivery')).toContain('domains.txt:11 crates.io → SPF include:mailgun.org');
    expect(found.get('atlassian-statuspage')).toContain(
      'domains.txt:11 status.crates.io → CNAME pvbm341xnpgm.stspg-customer.com',
    );
    expect(found.get('github / Pages')).toContain('domains.txt:12 doc.crates.io → CNAME rust-lang.github.io');
  });

  it('jenkins.io: Fastly in front of the sites, mail through Mailgun, SendGrid and Google', () => {
    expect(found.get('fastly / Content Delivery')).toEqual([
      'domains.txt:13 www.jenkins.io → CNAME dualstack.d.sni.global.fastly.net',
      'domains.txt:14 plugins.jenkins.io → CNAME dualstack.d.sni.global.fastly.net',
    ]);
    for (const label of ['mailgun / Outbound Delivery', 'sendgrid / SendGrid Mail Sending', 'google-workspace / Gmail'])
      expect(
        found.get(label)?.some((line) => line.startsWith('domains.txt:13 jenkins.io → SPF include:')),
        label,
      ).toBe(true);
  });

  it('says nothing it cannot back: no provider for an address outside every published range, and no notes', () => {
    expect([...found.values()].flat().some((line) => line.includes('discuss.kubernetes.io'))).toBe(false);
    expect([...found.values()].flat().some((line) => line.includes('147.75.40.148'))).toBe(false);
    expect(notes).toEqual([]);
  });
});
