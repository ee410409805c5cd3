import { appendFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCachedProviders, writeCatalogCache } from '../../src/catalog/cache.js';
import { loadCatalog } from '../../src/catalog/loader.js';
import { PROVIDERS_DIR } from '../../src/paths.js';
import { writeTestCatalog } from '../helpers/catalog.js';

describe('catalog cache', () => {
  it('gives back exactly the providers the YAML files give, and is dropped once a file changes', async () => {
    const dir = writeTestCatalog(['aws', 'google-cloud', 'heroku', 'stripe', 'twingate']);
    const cachePath = join(mkdtempSync(join(tmpdir(), 'downstack-cache-')), 'catalog-cache.json');
    const fromYaml = [...loadCatalog([dir]).providers.values()];
    await writeCatalogCache(dir, fromYaml, cachePath);
    expect(readCachedProviders(dir, cachePath)).toEqual(fromYaml);

    appendFileSync(join(dir, 'stripe.yaml'), '# edited\n');
    expect(readCachedProviders(dir, cachePath)).toBeUndefined();
    expect(readCachedProviders('test/fixtures/catalog-broken', cachePath)).toBeUndefined();
  });

  it('serves the built-in catalog identical to a fresh read of its YAML files', () => {
    const cached = loadCatalog();
    const fresh = loadCatalog([PROVIDERS_DIR], { cache: false });
    expect([...cached.providers.entries()]).toEqual([...fresh.providers.entries()]);
  });
});
