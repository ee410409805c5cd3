import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadCatalog } from '../../../src/catalog/loader.js';
import { finalizeDraft, readDocument } from '../../../src/incidents/import/index.js';
import { chooseProvider } from '../../../src/incidents/import/provider.js';
import type { Incident } from '../../../src/model.js';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/import/', import.meta.url));
export const catalog = loadCatalog([`${FIXTURES}catalog`]);

export function fixture(path: string): { file: string; text: string } {
  return { file: `${FIXTURES}${path}`, text: readFileSync(`${FIXTURES}${path}`, 'utf8') };
}

/** Reads a fixture the way `downstack import` does, without touching an index. */
export function importFixture(path: string, provider?: string): Incident[] {
  const document = fixture(path);
  return readDocument(document).map((draft) => {
    const choice = chooseProvider(draft.hints, catalog, provider, document.file);
    return finalizeDraft(draft, choice.provider, choice.upstream, catalog);
  });
}
