// Build step: validate the built-in catalog from its YAML files and the embedded snapshot against the index schema,
// and write the JSON copies that start-up reads instead (src/catalog/cache.ts, src/incidents/snapshot-cache.ts).
import { readdirSync } from 'node:fs';
import { writeCatalogCache } from '../dist/catalog/cache.js';
import { loadCatalog } from '../dist/catalog/loader.js';
import { loadLeadTable } from '../dist/incidents/lead.js';
import { writeSnapshotCache } from '../dist/incidents/snapshot-cache.js';
import { IncidentIndex } from '../dist/incidents/store.js';
import { HISTORY_DIR, PROVIDERS_DIR, SNAPSHOT_DIR } from '../dist/paths.js';

const catalog = loadCatalog([PROVIDERS_DIR], { cache: false });
await writeCatalogCache(PROVIDERS_DIR, [...catalog.providers.values()]);

// The snapshot directory read as an index directory: each file through the same validation as any index file.
const snapshot = new IncidentIndex(SNAPSHOT_DIR, null);
const files = {};
for (const name of readdirSync(SNAPSHOT_DIR)
  .filter((file) => file.endsWith('.json'))
  .sort()) {
  const provider = name.slice(0, -'.json'.length);
  const file = await snapshot.readIndexFile(provider);
  if (file) files[provider] = file;
}
// The lead table as loadLeadTable validates it; the copy is written without it when the table is missing or bad.
const table = await loadLeadTable(HISTORY_DIR);
await writeSnapshotCache(SNAPSHOT_DIR, files, table && { dir: HISTORY_DIR, table });
