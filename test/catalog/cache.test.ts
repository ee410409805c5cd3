import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCachedCatalog, readCachedProviders, writeCatalogCache } from '../../src/catalog/cache.js';
import { loadCatalog } from '../../src/catalog/loader.js';
import { buildMatcher } from '../../src/catalog/matcher.js';
import { helperRows, MATCHER_GROUP_NAMES, matcherTable } from '../../src/catalog/matchers.js';
import { PROVIDERS_DIR } from '../../src/paths.js';
import { writeTestCatalog } from '../helpers/catalog.js';

const IDS = ['aws', 'google-cloud', 'heroku', 'stripe', 'twingate'];
// The copy `npm run build` wrote (the sources run here would look for it next to src/).
const BUILT_COPY = resolve(import.meta.dirname, '..', '..', 'dist', 'catalog-cache.json');

async function copyOf(ids: string[]) {
  const dir = writeTestCatalog(ids);
  const cachePath = join(mkdtempSync(join(tmpdir(), 'downstack-cache-')), 'catalog-cache.json');
  const fromYaml = [...loadCatalog([dir]).providers.values()];
  await writeCatalogCache(dir, fromYaml, cachePath);
  return { dir, cachePath, fromYaml };
}

describe('catalog cache', () => {
  it('gives back exactly the providers the YAML files give, and is dropped once a file changes', async () => {
    const { dir, cachePath, fromYaml } = await copyOf(IDS);
    expect(readCachedProviders(dir, cachePath)).toEqual(fromYaml);
    const catalog = readCachedCatalog(dir, cachePath);
    expect([...(catalog?.providers.keys() ?? [])]).toEqual(IDS);
    expect(catalog?.providers.get('stripe')).toEqual(fromYaml.find((provider) => provider.id === 'stripe'));
    expect(catalog?.providers.get('nonesuch')).toBeUndefined();
    expect(catalog?.providers.has('nonesuch')).toBe(false);

    appendFileSync(join(dir, 'stripe.yaml'), '# edited\n');
    expect(readCachedCatalog(dir, cachePath)).toBeUndefined();
    expect(readCachedProviders('test/fixtures/catalog-broken', cachePath)).toBeUndefined();
  });

  it('serves the built-in catalog identical to a fresh read of its YAML files', () => {
    const cached = readCachedCatalog(PROVIDERS_DIR, BUILT_COPY);
    if (!cached) throw new Error('the build wrote no usable copy of the built-in catalog');
    const fresh = loadCatalog([PROVIDERS_DIR], { cache: false });
    expect([...cached.providers.entries()]).toEqual([...fresh.providers.entries()]);
  });

  it('holds the matcher tables and helpers the built-in catalog computes from its providers', () => {
    const copy = readCachedCatalog(PROVIDERS_DIR, BUILT_COPY);
    if (!copy?.matcherTable || !copy.helperRows) throw new Error('the build wrote no copy of the built-in catalog');
    const fresh = [...loadCatalog([PROVIDERS_DIR], { cache: false }).providers.values()];
    for (const group of MATCHER_GROUP_NAMES)
      expect(copy.matcherTable(group), group).toEqual(matcherTable(fresh, group));
    expect(copy.helperRows()).toEqual(helperRows(fresh));
    // And the matcher answers the same from the tables as from the providers.
    const fromTables = buildMatcher(copy);
    const fromProviders = buildMatcher({ providers: new Map(fresh.map((provider) => [provider.id, provider])) });
    for (const dependency of [
      { name: '@aws-sdk/client-s3', ecosystem: 'npm' as const },
      { name: '@sentry/node', ecosystem: 'npm' as const },
      { name: 'api.stripe.com', ecosystem: 'domain' as const },
      { name: 'aws_s3_bucket', ecosystem: 'terraform-resource' as const },
      { name: 'google-cloud-storage', ecosystem: 'pypi' as const },
    ]) {
      const one = { ...dependency, file: 'x', line: 1 };
      expect(fromTables.match(one), dependency.name).toEqual(fromProviders.match(one));
      expect(fromTables.match(one).length, dependency.name).toBeGreaterThan(0);
    }
  });

  it('parses a provider when it is first asked for: a damaged line fails for that provider alone, by name', async () => {
    const { dir, cachePath, fromYaml } = await copyOf(IDS);
    const lines = readFileSync(cachePath, 'utf8').split('\n');
    // The last provider's line (stripe is fourth of five: twingate's is last), damaged without changing its length.
    const last = lines.length - 2;
    lines[last] = `#${(lines[last] as string).slice(1)}`;
    writeFileSync(cachePath, lines.join('\n'));
    const catalog = readCachedCatalog(dir, cachePath);
    expect(catalog?.providers.get('stripe')).toEqual(fromYaml.find((provider) => provider.id === 'stripe'));
    expect(() => catalog?.providers.get('twingate')).toThrow(
      `${cachePath}: line ${last + 1} of the catalog copy is damaged; run \`npm run build\``,
    );
  });

  it('drops a copy that is truncated, empty, of another version or from another folder', async () => {
    const { dir, cachePath } = await copyOf(IDS);
    const text = readFileSync(cachePath, 'utf8');
    const header = JSON.parse(text.slice(0, text.indexOf('\n')));
    const variants = {
      truncated: text.slice(0, -40),
      empty: '',
      'header only': `${text.slice(0, text.indexOf('\n'))}\n`,
      'version 1': text.replace('"version":2', '"version":1'),
      'not an object': `null${text.slice(text.indexOf('\n'))}`,
      'no line lengths': text.replace(/"lengths":\[[\d,]*\]/, '"lengths":7'),
      'another folder': text.replace(JSON.stringify(header.dir), JSON.stringify('/elsewhere')),
    };
    for (const [name, variant] of Object.entries(variants)) {
      writeFileSync(cachePath, variant);
      expect(readCachedCatalog(dir, cachePath), name).toBeUndefined();
    }
  });

  it('is read-only: a run cannot add a provider to the built-in catalog by mistake', async () => {
    const { dir, cachePath, fromYaml } = await copyOf(IDS);
    const providers = readCachedCatalog(dir, cachePath)?.providers;
    expect(() => providers?.set('stripe', fromYaml[0] as never)).toThrow('read-only');
    expect(() => providers?.delete('stripe')).toThrow('read-only');
    expect(providers?.size).toBe(IDS.length);
  });
});
