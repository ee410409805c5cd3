// Writes a small provider catalog pointing at the loopback server (the port is only known at test time).
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';

export interface TestProvider {
  id: string;
  platform: string;
  url: string;
  endpoints?: string[];
  feed?: string;
  pageId?: string;
  npm?: string[];
  components?: Array<{ name: string; id?: string }>;
  regions?: string[];
}

export function writeCatalog(providers: TestProvider[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'downstack-catalog-'));
  for (const provider of providers) {
    const doc = {
      name: provider.id,
      category: 'other',
      status: {
        url: provider.url,
        platform: provider.platform,
        ...(provider.pageId ? { pageId: provider.pageId } : {}),
        ...(provider.feed ? { feed: provider.feed } : {}),
        ...(provider.endpoints ? { endpoints: provider.endpoints } : {}),
      },
      match: { npm: provider.npm ?? [`${provider.id}-sdk`] },
      ...(provider.regions ? { regions: provider.regions } : {}),
      components: provider.components ?? [],
    };
    writeFileSync(join(dir, `${provider.id}.yaml`), stringify(doc));
  }
  return dir;
}

export function tempDir(prefix = 'downstack-index-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Copies the catalog templates in test/fixtures/sync/catalog with `{{BASE}}` set to the loopback server. */
export function catalogFromTemplates(base: string): string {
  const source = join(import.meta.dirname, '..', 'fixtures', 'sync', 'catalog');
  const dir = mkdtempSync(join(tmpdir(), 'downstack-catalog-'));
  for (const name of readdirSync(source))
    writeFileSync(join(dir, name), readFileSync(join(source, name), 'utf8').replaceAll('{{BASE}}', base));
  return dir;
}
