import { describe, expect, it } from 'vitest';
import type { Exposure } from '../../src/model.js';
import { findIncidents } from '../../src/incidents/findings.js';
import { buildMatcher, exposuresFor } from '../../src/catalog/matcher.js';
import { IncidentIndex } from '../../src/incidents/store.js';
import type { Dependency } from '../../src/model.js';
import type { Incident } from '../../src/model.js';
import { checkTerraformFixture, terraformCatalog, TERRAFORM_FIXTURES } from '../helpers/terraform-check.js';

const ids = (report: Awaited<ReturnType<typeof checkTerraformFixture>>) =>
  report.findings
    .map((finding) => `${finding.incident.id} ${finding.confidence} [${finding.components.join(', ')}]`)
    .sort();

describe('findings honour the region of Terraform exposures', () => {
  it('an eu-west-2 aws_lb is hit by the eu-west-2 ELB incident and not by the us-east-1 one', async () => {
    const report = await checkTerraformFixture(['configs/root-with-modules']);
    expect(ids(report)).toEqual(
      [
        'elb-euw2-2025-10 certain [Elastic Load Balancing]',
        // module "edge" puts the certificate in us-east-1 through providers = { aws = aws.us }.
        'acm-use1-2025-10 certain [AWS Certificate Manager]',
        // An incident that names no component, in the region the stack runs in.
        'multi-euw2-2025-10 certain [Amazon CloudWatch, Amazon Simple Storage Service, Amazon Virtual Private Cloud, Elastic Load Balancing]',
        // Cloudflare incidents are not regional; the DNS records match by component.
        'dns-2025-10 certain [Authoritative DNS]',
      ].sort(),
    );
    expect(report.findings.some((finding) => finding.incident.id === 'elb-use1-2025-10')).toBe(false);
    expect(report.findings.some((finding) => finding.incident.id === 'multi-apne1-2025-10')).toBe(false);
  });

  it('a database applied per environment (prod.tfvars, staging.tfvars) is hit in its regions only', async () => {
    const report = await checkTerraformFixture(['configs/var-files-per-env']);
    // aws_db_instance in eu-west-2 and us-east-1: not the ap-southeast-2 RDS incident, but the eu-west-2 one.
    expect(ids(report)).toEqual(['multi-euw2-2025-10 certain [Amazon Relational Database Service]']);
  });

  it('an exposure whose region is unknown is flagged "possibly" for a regional incident', async () => {
    const catalog = terraformCatalog();
    const incident = (regions: string[]): Incident => ({
      provider: 'aws',
      id: `elb-${regions.join('-')}`,
      title: 'ELB errors',
      url: '',
      status: 'resolved',
      impact: 'major',
      components: ['Elastic Load Balancing'],
      regions,
      startedAt: '2025-10-14T09:00:00Z',
      resolvedAt: '2025-10-14T10:00:00Z',
      updates: [],
      source: 'fixture',
    });
    const exposure = (region?: string): Exposure => ({
      provider: 'aws',
      components: [{ name: 'Elastic Load Balancing', ...(region ? { region } : {}) }],
      evidence: [],
      devOnly: false,
    });
    const window = {
      since: new Date('2025-10-01T00:00:00Z'),
      until: new Date('2025-10-31T00:00:00Z'),
      now: new Date('2025-11-01T00:00:00Z'),
    };
    const run = (target: Exposure, regions: string[]) =>
      findIncidents([target], new Map([['aws', [incident(regions)]]]), catalog, window).map(
        (finding) => finding.confidence,
      );
    expect(run(exposure(undefined), ['eu-west-2'])).toEqual(['possibly']);
    expect(run(exposure('eu-west-2'), ['EU-WEST-2'])).toEqual(['certain']);
    expect(run(exposure('us-east-1'), ['eu-west-2'])).toEqual([]);
    expect(run(exposure('us-east-1'), [])).toEqual(['certain']);
  });

  it('whole-provider evidence with a known region (a registry module) matches only incidents in that region', async () => {
    const catalog = terraformCatalog();
    const window = {
      since: new Date('2025-10-01T00:00:00Z'),
      until: new Date('2025-10-31T00:00:00Z'),
      now: new Date('2025-11-01T00:00:00Z'),
    };
    const exposure: Exposure = {
      provider: 'aws',
      components: [],
      wholeProvider: true,
      wholeProviderRegions: ['eu-west-2'],
      evidence: [],
      devOnly: false,
    };
    const base = {
      provider: 'aws',
      title: 't',
      url: '',
      status: 'resolved' as const,
      impact: 'minor' as const,
      components: ['Amazon Relational Database Service'],
      startedAt: '2025-10-02T00:00:00Z',
      resolvedAt: '2025-10-02T01:00:00Z',
      updates: [],
      source: 'fixture',
    };
    const incidents = [
      { ...base, id: 'in-region', regions: ['eu-west-2'] },
      { ...base, id: 'elsewhere', regions: ['us-east-1'] },
      { ...base, id: 'global', regions: [] },
    ];
    const found = findIncidents([exposure], new Map([['aws', incidents]]), catalog, window).map(
      (finding) => `${finding.incident.id} ${finding.confidence}`,
    );
    expect(found.sort()).toEqual(['global certain', 'in-region certain']);
    const unknown = findIncidents(
      [{ ...exposure, wholeProviderRegions: undefined }],
      new Map([['aws', incidents]]),
      catalog,
      window,
    ).map((finding) => `${finding.incident.id} ${finding.confidence}`);
    expect(unknown.sort()).toEqual(['elsewhere possibly', 'global certain', 'in-region possibly']);
  });

  it('a resource the catalog maps to no component is hit by provider-wide incidents in its region only', async () => {
    const catalog = terraformCatalog();
    const { incidents } = await new IncidentIndex(
      `${TERRAFORM_FIXTURES}index`,
      `${TERRAFORM_FIXTURES}empty-snapshot`,
    ).read('aws');
    const window = {
      since: new Date('2025-10-01T00:00:00Z'),
      until: new Date('2025-10-31T00:00:00Z'),
      now: new Date('2025-11-01T00:00:00Z'),
    };
    const role = (region?: string): Dependency => ({
      ecosystem: 'terraform-resource',
      name: 'aws_iam_role',
      ...(region ? { region } : {}),
      file: 'iam.tf',
      line: 1,
      direct: true,
      via: ['.', 'aws_iam_role.app'],
    });
    const found = (region?: string) => {
      const { exposures } = exposuresFor([role(region)], buildMatcher(catalog), catalog);
      return findIncidents(exposures, new Map([['aws', incidents]]), catalog, window).map(
        (finding) => `${finding.incident.id} ${finding.confidence}`,
      );
    };
    expect(found('eu-west-2')).toEqual(['multi-euw2-2025-10 certain']);
    expect(found(undefined).sort()).toEqual(['multi-apne1-2025-10 possibly', 'multi-euw2-2025-10 possibly']);
  });
});
