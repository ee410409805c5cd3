// Build step: validate the built-in catalog from its YAML files and write the JSON copy that start-up reads.
import { writeCatalogCache } from '../dist/catalog/cache.js';
import { loadCatalog } from '../dist/catalog/loader.js';
import { PROVIDERS_DIR } from '../dist/paths.js';

const catalog = loadCatalog([PROVIDERS_DIR], { cache: false });
await writeCatalogCache(PROVIDERS_DIR, [...catalog.providers.values()]);
