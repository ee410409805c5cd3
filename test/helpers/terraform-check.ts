// Runs the check pipeline on Terraform fixtures against the fixture catalog and index only (never the embedded
// snapshot, whose contents other work changes).
import { fileURLToPath } from 'node:url';
import type { CheckReport } from '../../src/check.js';
import { notInCatalog } from '../../src/catalog/candidates.js';
import { loadCatalog } from '../../src/catalog/loader.js';
import { buildMatcher, exposuresFor } from '../../src/catalog/matcher.js';
import { findIncidents } from '../../src/incidents/findings.js';
import { IncidentIndex } from '../../src/incidents/store.js';
import { mergeWindows } from '../../src/replay.js';
import { scanPaths } from '../../src/scan.js';

export const TERRAFORM_FIXTURES = fileURLToPath(new URL('../fixtures/terraform/', import.meta.url));
export const terraformCatalog = () => loadCatalog([`${TERRAFORM_FIXTURES}catalog`]);

export async function checkTerraformFixture(paths: string[], since = '2025-10-01T00:00:00Z', until = '2025-10-31T00:00:00Z'): Promise<CheckReport> {
  const catalog = terraformCatalog();
  const scan = await scanPaths(paths.map((path) => `${TERRAFORM_FIXTURES}${path}`));
  const dependencies = scan.inputs.flatMap((input) => input.dependencies);
  const { exposures, unmatched } = exposuresFor(dependencies, buildMatcher(catalog), catalog);
  const index = new IncidentIndex(`${TERRAFORM_FIXTURES}index`, `${TERRAFORM_FIXTURES}empty-snapshot`);
  const loaded = await Promise.all([...new Set(exposures.map((exposure) => exposure.provider))].map((id) => index.read(id)));
  const window = { since: new Date(since), until: new Date(until), now: new Date('2025-11-01T00:00:00Z') };
  const findings = findIncidents(exposures, new Map(loaded.map((entry) => [entry.provider, entry.incidents])), catalog, window);
  return {
    generatedAt: window.now.toISOString(),
    window: { since, until },
    inputs: scan.inputs,
    errors: scan.errors,
    exposures,
    unmatched,
    notInCatalog: notInCatalog(unmatched),
    findings,
    replay: mergeWindows(findings),
    index: { dir: `${TERRAFORM_FIXTURES}index`, synced: 0, snapshotIncidents: 0, problems: [] },
    recent: [],
    catalog,
  };
}
