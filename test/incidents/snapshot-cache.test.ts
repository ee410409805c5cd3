// The build-time copy of the embedded snapshot and lead table: what a check reads in place of validating the files.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadLeadTable } from '../../src/incidents/lead.js';
import { cachedLeads, cachedSnapshot, writeSnapshotCache } from '../../src/incidents/snapshot-cache.js';
import { IncidentIndex } from '../../src/incidents/store.js';
import { HISTORY_DIR, SNAPSHOT_DIR } from '../../src/paths.js';

/** A copy of the shipped snapshot directory and lead table, so a test may touch the files. */
function copyOfPackageData(): { snapshot: string; history: string; cache: string } {
  const root = mkdtempSync(join(tmpdir(), 'downstack-snapshot-cache-'));
  const snapshot = join(root, 'snapshot');
  const history = join(root, 'history');
  mkdirSync(snapshot);
  mkdirSync(history);
  for (const name of readdirSync(SNAPSHOT_DIR).filter((file) => file.endsWith('.json')))
    copyFileSync(join(SNAPSHOT_DIR, name), join(snapshot, name));
  copyFileSync(join(HISTORY_DIR, 'leads.json'), join(history, 'leads.json'));
  return { snapshot, history, cache: join(root, 'snapshot-cache.json') };
}

/** Each file of `dir` read as an index file, through the index schema. */
async function validated(dir: string) {
  const index = new IncidentIndex(dir, null);
  const files: Record<string, NonNullable<Awaited<ReturnType<IncidentIndex['readIndexFile']>>>> = {};
  for (const name of readdirSync(dir).filter((file) => file.endsWith('.json'))) {
    const provider = name.slice(0, -'.json'.length);
    const file = await index.readIndexFile(provider);
    if (file) files[provider] = file;
  }
  return files;
}

describe('the snapshot copy made at build time', () => {
  it('holds every snapshot file exactly as the index schema reads it, and the lead table as validated', async () => {
    const data = copyOfPackageData();
    const files = await validated(data.snapshot);
    expect(Object.keys(files).length).toBeGreaterThan(5);
    const table = await loadLeadTable(data.history);
    expect(table?.schemaVersion).toBe(1);
    await writeSnapshotCache(data.snapshot, files, table && { dir: data.history, table }, data.cache);
    const copy = cachedSnapshot(data.snapshot, data.cache);
    expect(copy && Object.fromEntries(copy)).toEqual(files);
    expect(cachedLeads(data.history, data.cache)).toEqual(table);
  });

  it('is not used for a directory or lead table that changed since it was made', async () => {
    const data = copyOfPackageData();
    const table = await loadLeadTable(data.history);
    await writeSnapshotCache(
      data.snapshot,
      await validated(data.snapshot),
      table && { dir: data.history, table },
      data.cache,
    );
    const [first] = readdirSync(data.snapshot);
    utimesSync(join(data.snapshot, first as string), new Date(1000), new Date(1000));
    utimesSync(join(data.history, 'leads.json'), new Date(1000), new Date(1000));
    expect(cachedSnapshot(data.snapshot, data.cache)).toBeUndefined();
    expect(cachedLeads(data.history, data.cache)).toBeUndefined();
    expect(cachedSnapshot(join(data.snapshot, 'missing'), data.cache)).toBeUndefined();
  });
});
