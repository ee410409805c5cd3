// Runs the check pipeline on Terraform fixtures against the fixture catalog and index only (never the embedded
// snapshot, whose contents other work changes).
import { fileURLToPath } from 'node:url';
import { runCheck, type CheckReport } from '../../src/check.js';
import { testCatalog } from './catalog.js';

export const TERRAFORM_FIXTURES = fileURLToPath(new URL('../fixtures/terraform/', import.meta.url));
export const terraformCatalog = () => testCatalog(['aws', 'azure', 'cloudflare', 'datadog', 'google-cloud']);

export async function checkTerraformFixture(
  paths: string[],
  since = '2025-10-01T00:00:00Z',
  until = '2025-10-31T00:00:00Z',
): Promise<CheckReport> {
  return runCheck({
    paths: paths.map((path) => `${TERRAFORM_FIXTURES}${path}`),
    catalog: terraformCatalog(),
    indexDir: `${TERRAFORM_FIXTURES}index`,
    snapshotDir: `${TERRAFORM_FIXTURES}empty-snapshot`,
    since: new Date(since),
    until: new Date(until),
    now: new Date('2025-11-01T00:00:00Z'),
  });
}
