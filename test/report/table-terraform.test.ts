import { describe, expect, it } from 'vitest';
import { forOutput } from '../../src/sanitize.js';
import { notInCatalog } from '../../src/catalog/candidates.js';
import { renderTable } from '../../src/report/table.js';
import { checkTerraformFixture } from '../helpers/terraform-check.js';

describe('table report for a Terraform stack', () => {
  it('lists Terraform providers the catalog does not know, leaving out local utility providers', async () => {
    const report = await checkTerraformFixture(['configs/root-with-modules']);
    const text = forOutput(renderTable(report, { now: new Date('2025-11-01T00:00:00Z') }));
    const line = text.split('\n').find((row) => row.includes('Not in catalog'));
    // Named once, as written in versions.tf, although the lock file writes it in lower case.
    expect(line?.trim()).toBe('Not in catalog, so not checked: terraform:Twingate/twingate');
    expect(report.notInCatalog).toEqual(['terraform:Twingate/twingate']);
    expect(text).toContain('Amazon Web Services  all components in eu-west-2 (notably Amazon CloudFront (us-east-1)');
    // The evidence line leads with resources, not with the provider requirement.
    expect(text).toContain(
      '← main.tf:8 aws_region, :27 terraform-aws-modules/vpc/aws//modules/vpc-endpoints, :34 aws_lb, +4 more',
    );
    const aws = report.exposures.find((exposure) => exposure.provider === 'aws');
    const components = aws?.components.map(({ name, region }) => ({ name, region }));
    expect(components).toContainEqual({ name: 'Elastic Load Balancing', region: 'eu-west-2' });
    expect(components).toContainEqual({ name: 'AWS Certificate Manager', region: 'us-east-1' });
  });

  it('names an unknown provider even when nothing maps to the catalog', async () => {
    const report = await checkTerraformFixture(['configs/unknown-provider-only']);
    expect(report.exposures).toEqual([]);
    const text = forOutput(renderTable(report, { now: new Date('2025-11-01T00:00:00Z') }));
    expect(text).toContain('No dependency maps to a provider in the catalog');
    expect(text).toContain('Not in catalog, so not checked: terraform:Twingate/twingate');
  });

  it('leaves out local utility providers and folds registry hosts and letter case', () => {
    const provider = (name: string) => ({
      ecosystem: 'terraform-provider' as const,
      name,
      file: 'versions.tf',
      line: 1,
      direct: true,
      via: [],
    });
    expect(
      notInCatalog([
        provider('hashicorp/random'),
        provider('null'),
        provider('registry.terraform.io/twingate/twingate'),
        provider('Twingate/twingate'),
        provider('acme/internal'),
      ]),
    ).toEqual(['terraform:Twingate/twingate', 'terraform:acme/internal']);
  });
});
