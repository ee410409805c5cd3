// The one way tests build a provider catalog: pick providers from the shared test pool (test/fixtures/providers,
// one YAML file per provider, shaped like the real ones), optionally point their status pages at a loopback
// server, and add ad-hoc providers. The result is a directory, usable by loadCatalog and by the CLI
// (DOWNSTACK_PROVIDERS_DIR, see test/helpers/cli.ts).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { type Catalog, loadCatalog } from '../../src/catalog/loader.js';

export const TEST_PROVIDERS = join(import.meta.dirname, '..', 'fixtures', 'providers');

/** A provider made up for one test (a loopback status page, a made-up SDK). */
export interface TestProvider {
  id: string;
  platform: string;
  url: string;
  endpoints?: string[];
  feed?: string;
  pageId?: string;
  /** Default: `<id>-sdk`. */
  npm?: string[];
  components?: Array<{ name: string; id?: string }>;
  regions?: string[];
}

export interface TestCatalogOptions {
  /**
   * Serve every status URL from this loopback base: `https://host/path` becomes `<statusBase>/<id>/path`, so one
   * server answers for every provider of the catalog.
   */
  statusBase?: string;
  /** Providers made up for the test, written after the pool's. */
  extra?: TestProvider[];
}

/**
 * Writes a catalog directory with the pool providers `ids` (upstreams outside the selection are dropped from
 * `runsOn`, so any subset loads) plus `extra`, and returns its path.
 */
export function writeTestCatalog(ids: string[], options: TestCatalogOptions = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'downstack-catalog-'));
  const selected = new Set(ids);
  for (const id of ids) {
    const doc = parse(readFileSync(join(TEST_PROVIDERS, `${id}.yaml`), 'utf8')) as PoolProvider;
    if (doc.runsOn) doc.runsOn = doc.runsOn.filter((upstream) => selected.has(upstream.provider));
    if (doc.runsOn?.length === 0) delete doc.runsOn;
    if (options.statusBase) doc.status = servedFrom(doc.status, `${options.statusBase}/${id}`);
    writeFileSync(join(dir, `${id}.yaml`), stringify(doc));
  }
  for (const provider of options.extra ?? [])
    writeFileSync(join(dir, `${provider.id}.yaml`), stringify(toDoc(provider)));
  return dir;
}

/** The same catalog, loaded. */
export function testCatalog(ids: string[], options: TestCatalogOptions = {}): Catalog {
  return loadCatalog([writeTestCatalog(ids, options)]);
}

export function tempDir(prefix = 'downstack-index-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

interface PoolProvider {
  status: { url: string; feed?: string; endpoints?: string[] };
  runsOn?: Array<{ provider: string }>;
}

function servedFrom(status: PoolProvider['status'], base: string): PoolProvider['status'] {
  const moved = (url: string) => {
    const parsed = new URL(url);
    return `${base}${parsed.pathname === '/' ? '' : parsed.pathname}${parsed.search}`;
  };
  return {
    ...status,
    url: moved(status.url),
    ...(status.feed ? { feed: moved(status.feed) } : {}),
    ...(status.endpoints ? { endpoints: status.endpoints.map(moved) } : {}),
  };
}

function toDoc(provider: TestProvider) {
  return {
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
}
