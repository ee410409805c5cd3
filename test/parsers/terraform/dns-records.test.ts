// DNS managed in Terraform is evidence without a lookup: record resources carry their records, zones are the team's.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCheck } from '../../../src/check.js';
import { loadCatalog } from '../../../src/catalog/loader.js';
import type { Dependency } from '../../../src/model.js';
import { parseTerraformPlan } from '../../../src/parsers/terraform-plan.js';
import { scanPaths } from '../../../src/scan.js';

const DIR = 'test/fixtures/terraform/dns';

function records(dependencies: Dependency[]): string[] {
  return dependencies
    .filter((dependency) => dependency.ecosystem === 'domain')
    .map((dependency) => {
      const where = `${dependency.file.slice(DIR.length + 1)}:${dependency.line ?? '-'}`;
      const record = dependency.dns?.[0];
      return record ? `${where} ${record.name} ${record.type} ${record.value}` : `${where} zone ${dependency.name}`;
    });
}

describe('DNS records in Terraform configurations', () => {
  it('reads Route 53, Cloudflare (v4 and v5), Google Cloud DNS and Azure DNS records with their full names', async () => {
    const { inputs } = await scanPaths([DIR]);
    const found = records(inputs.flatMap((input) => input.dependencies));
    expect(found).toEqual(
      expect.arrayContaining([
        'route53.tf:1 zone acme.com',
        'route53.tf:12 www.acme.com CNAME cname.vercel-dns.com',
        'route53.tf:20 acme.com ALIAS d111111abcdef8.cloudfront.net',
        'route53.tf:31 acme.com MX aspmx.l.google.com',
        'route53.tf:31 acme.com MX alt1.aspmx.l.google.com',
        'route53.tf:39 acme.com SPF include:_spf.google.com',
        'route53.tf:39 acme.com SPF include:sendgrid.net',
        'route53.tf:39 acme.com TXT atlassian-domain-verification=Z8cYjM1vZ0l6X6nX',
        'route53.tf:39 acme.com TXT stripe-verification=5c3a1b2d',
        'cloudflare.tf:1 zone acme-shop.com',
        'cloudflare.tf:5 acme-shop.com CNAME shops.myshopify.com',
        'cloudflare.tf:13 status CNAME ckgk3z8l7xb2.stspg-customer.com',
        'cloudflare.tf:21 cloudflare_dns_record.mail MX mxa.mailgun.org',
        'google.tf:1 zone acme.io',
        'google.tf:6 acme.io A 76.76.21.21',
        'google.tf:14 docs.acme.io CNAME ssl.readmessl.com',
        'google.tf:22 acme.io SPF include:spf.protection.outlook.com',
        'google.tf:22 acme.io TXT MS=ms894daf5',
        'azure.tf:6 azurerm_dns_cname_record.pkg CNAME dualstack.d.sni.global.fastly.net',
        'azure.tf:15 acme.org MX acme-org.mail.protection.outlook.com',
        'azure.tf:26 acme.org SPF include:mailgun.org',
        'azure.tf:26 acme.org TXT google-site-verification=uP0NdVMRRbaJGmtlGUyDHeNnA9aDBBYDwq5sE2uUCpA',
        'azure.tf:39 aws.acme.org NS ns-1682.awsdns-18.co.uk',
        'azure.tf:47 intranet.acme.org A 10.20.0.4',
      ]),
    );
    // A private zone is not the team's public surface, and a record whose value Terraform computes says nothing.
    expect(found.some((line) => line.includes('acme.internal'))).toBe(false);
    expect(found.some((line) => line.includes('api.acme.com'))).toBe(false);
  });

  it('reads the same records from `terraform show -json`, with the names the provider computed', () => {
    const { dependencies } = parseTerraformPlan(readFileSync(`${DIR}/state.json`, 'utf8'), `${DIR}/state.json`);
    expect(records(dependencies)).toEqual([
      'state.json:- zone acme.com',
      'state.json:- www.acme.com CNAME cname.vercel-dns.com',
      'state.json:- acme.com MX aspmx.l.google.com',
      'state.json:- acme.com MX alt1.aspmx.l.google.com',
      'state.json:- acme.com ALIAS d111111abcdef8.cloudfront.net',
    ]);
  });

  it('maps the records to providers through the catalog, without any lookup, and never matches internal addresses', async () => {
    const report = await runCheck({
      paths: [DIR],
      catalog: loadCatalog(),
      indexDir: 'test/fixtures/terraform/index',
      snapshotDir: null,
      since: new Date('2025-10-01T00:00:00Z'),
      until: new Date('2025-10-31T00:00:00Z'),
      now: new Date('2025-11-01T00:00:00Z'),
    });
    const byProvider = new Map(report.exposures.filter((e) => !e.through).map((e) => [e.provider, e]));
    for (const id of [
      'vercel',
      'google-workspace',
      'sendgrid',
      'atlassian',
      'stripe',
      'shopify',
      'atlassian-statuspage',
      'mailgun',
      'readme',
      'microsoft-365',
      'fastly',
    ])
      expect(byProvider.has(id), id).toBe(true);
    expect(byProvider.get('aws')?.components.map((component) => component.name)).toEqual(
      expect.arrayContaining(['Amazon CloudFront', 'Amazon Route 53']),
    );
    const vercel = byProvider.get('vercel')?.evidence.find((dependency) => dependency.dns);
    expect(vercel).toMatchObject({ file: `${DIR}/google.tf`, line: 6, dns: [{ type: 'A', value: '76.76.21.21' }] });
    expect(report.exposures.flatMap((e) => e.evidence).some((d) => d.dns?.[0]?.value === '10.20.0.4')).toBe(false);
  });
});
