import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { finalizeDraft, readDocument } from '../../src/incidents/import/index.js';
import type { Incident, InputProblem } from '../../src/model.js';
import { testCatalog } from './catalog.js';

export const FIXTURES = fileURLToPath(new URL('../fixtures/import/', import.meta.url));
export const IMPORT_PROVIDERS = ['aws', 'gcp', 'github', 'northwind', 'ruvna', 'trello', 'twingate'];
export const catalog = testCatalog(IMPORT_PROVIDERS);

export function fixture(path: string): { file: string; text: string } {
  return { file: `${FIXTURES}${path}`, text: readFileSync(`${FIXTURES}${path}`, 'utf8') };
}

/** Reads a document the way `downstack import` does, without touching an index; entry problems are returned too. */
export function importText(
  file: string,
  text: string,
  provider?: string,
): { incidents: Incident[]; problems: string[]; warnings: InputProblem[] } {
  const read = readDocument({ file, text });
  const warnings: InputProblem[] = [];
  const problems = [...read.problems];
  const incidents: Incident[] = [];
  for (const draft of read.drafts) {
    const result = finalizeDraft(draft, catalog, provider, warnings);
    if (typeof result === 'string') problems.push(result);
    else incidents.push(result);
  }
  return { incidents, problems, warnings };
}

/** Reads a fixture the way `downstack import` does; fails on any entry it cannot read. */
export function importFixture(path: string, provider?: string): Incident[] {
  const document = fixture(path);
  const { incidents, problems } = importText(document.file, document.text, provider);
  if (problems.length > 0) throw new Error(problems.join('\n'));
  return incidents;
}
