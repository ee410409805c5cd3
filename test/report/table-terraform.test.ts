import { describe, expect, it } from 'vitest';
import { notInCatalog, renderTable } from '../../src/report/table.js';
import { checkTerraformFixture } from '../helpers/terraform-check.js';

describe('table report for a Terraform stack', () => {
  it('lists Terraform providers the catalog does not know, leaving out local utility providers', async () => {
    const report = await checkTerraformFixture(['configs/root-with-modules']);
    const text = renderTable(report, { color: false, now: new Date('2025-11-01T00:00:00Z') });
    const line = text.split('\n').find((row) => row.includes('not in catalog:'));
    expect(line?.trim()).toMatch(/^not in catalog: twingate\/twingate \(.*root-with-modules\/\.terraform\.lock\.hcl:37\)$/);
    expect(text).not.toMatch(/not in catalog:.*random/);
    expect(text).toContain('Amazon Web Services  all components in eu-west-2 (notably Amazon CloudFront (us-east-1)');
    // The evidence line leads with resources, not with the provider requirement.
    expect(text).toMatch(/← \S*root-with-modules\/main\.tf:8 aws_region; \S*root-with-modules\/main\.tf:34 aws_lb; /);
    const aws = report.exposures.find((exposure) => exposure.provider === 'aws');
    expect(aws?.components).toContainEqual({ name: 'Elastic Load Balancing', region: 'eu-west-2' });
    expect(aws?.components).toContainEqual({ name: 'AWS Certificate Manager', region: 'us-east-1' });
  });

  it('names an unknown provider even when nothing maps to the catalog', () => {
    expect(notInCatalog([{ ecosystem: 'terraform-provider', name: 'Twingate/twingate', file: 'versions.tf', line: 23, direct: true, via: [] }])).toBe('not in catalog: Twingate/twingate (versions.tf:23)');
    expect(notInCatalog([{ ecosystem: 'npm', name: 'left-pad', file: 'package.json', direct: true, via: [] }])).toBeUndefined();
  });
});
