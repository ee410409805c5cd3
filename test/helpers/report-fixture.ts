// The fixed stack, catalog, index and clock every report test renders, so goldens never depend on the wall clock.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runCheck, type CheckReport } from '../../src/check.js';
import { loadCatalog } from '../../src/catalog/loader.js';
import { parseConfig } from '../../src/config/load.js';
import { applyIgnores, type ReportNotes } from '../../src/config/ignores.js';
import { writeTestCatalog } from './catalog.js';

export const FIXTURES = 'test/fixtures/report';
export const NOW = new Date('2021-08-11T06:00:00Z');
export const SINCE = new Date('2021-08-10T00:00:00Z');
export const UNTIL = new Date('2021-08-12T00:00:00Z');
/** The report fixture's own providers: ids apart from the real catalog's, so no report test reads as a real one. */
export const REPORT_PROVIDERS = ['fx-aws', 'fx-github', 'fx-sendgrid', 'fx-stripe'];

export async function fixtureReport(stack = 'stack', extraProviders: string[] = []): Promise<CheckReport> {
  return runCheck({
    paths: [join(FIXTURES, stack)],
    indexDir: join(FIXTURES, 'index'),
    since: SINCE,
    until: UNTIL,
    now: NOW,
    catalog: loadCatalog([writeTestCatalog(REPORT_PROVIDERS), ...extraProviders]),
    // A fixed lead, so goldens show replays that start before a first post without depending on history/leads.json.
    leadMinutes: 30,
  });
}

/** The configured stack with its `.downstack.yml` applied: one ignored finding, one expired rule. */
export async function configuredReport(): Promise<{ report: CheckReport; notes: ReportNotes }> {
  const file = join(FIXTURES, 'configured-stack', '.downstack.yml');
  const { config } = parseConfig(readFileSync(file, 'utf8'), file);
  const raw = await fixtureReport('configured-stack', config.providers);
  const notes = applyIgnores(raw.findings, config.ignore, NOW);
  return { report: { ...raw, findings: notes.findings, replay: notes.replay }, notes };
}

/** Compares with the golden file; `UPDATE_GOLDEN=1 npx vitest run` rewrites it after a deliberate change. */
export function expectGolden(actual: string, name: string): void {
  const path = join(FIXTURES, 'golden', name);
  if (process.env.UPDATE_GOLDEN) writeFileSync(path, actual);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}
