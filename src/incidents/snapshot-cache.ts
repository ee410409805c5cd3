// A validated copy of the embedded snapshot (and of the bundled lead table) as one JSON file, written at build time
// next to the catalog's copy: a check reads the snapshot of every provider in its stack and the lead table, and
// validating those with their schemas on each run would load zod for files that ship with the package and were
// validated when it was built. The copy is used only while every file still has the size and modification time it
// had when the copy was made.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../fs-atomic.js';
import { CODE_DIR } from '../paths.js';
import type { LeadTable } from './lead-schema.js';
import type { IndexFile } from './schema.js';

export const SNAPSHOT_CACHE = join(CODE_DIR, 'snapshot-cache.json');
const CACHE_VERSION = 1;

interface SnapshotCacheFile {
  version: number;
  dir: string;
  fingerprint: string[];
  /** Each provider's snapshot file as the index schema read it. */
  files: Record<string, IndexFile>;
  /** The lead table file (its directory, name, size and modification time) and its content as validated. */
  leads?: { fingerprint: string; table: LeadTable };
}

function fingerprint(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => {
      const info = statSync(resolve(dir, name));
      return `${name}:${info.size}:${Math.trunc(info.mtimeMs)}`;
    });
}

function fileFingerprint(path: string): string {
  const info = statSync(path);
  return `${resolve(path)}:${info.size}:${Math.trunc(info.mtimeMs)}`;
}

const LEADS_NAME = 'leads.json';

/** The copy's content, read once per process and path; null when there is none (or an unreadable one). */
const copies = new Map<string, SnapshotCacheFile | null>();
const snapshots = new Map<string, Map<string, IndexFile> | null>();

function readCopy(cachePath: string): SnapshotCacheFile | null {
  if (!copies.has(cachePath)) {
    let cache: SnapshotCacheFile | null;
    try {
      cache = JSON.parse(readFileSync(cachePath, 'utf8')) as SnapshotCacheFile;
      if (cache.version !== CACHE_VERSION) cache = null;
    } catch {
      cache = null; // No copy: the files are read and validated instead.
    }
    copies.set(cachePath, cache);
  }
  return copies.get(cachePath) ?? null;
}

/**
 * The snapshot of `dir` as validated at build time, by provider (a provider without a file has no entry), or
 * undefined when there is no copy of that directory or any of its files changed since the copy was made.
 */
export function cachedSnapshot(dir: string, cachePath = SNAPSHOT_CACHE): Map<string, IndexFile> | undefined {
  const key = `${resolve(dir)}\0${cachePath}`;
  if (!snapshots.has(key)) {
    const cache = readCopy(cachePath);
    let current: string[] | undefined;
    try {
      current = fingerprint(dir);
    } catch {
      current = undefined; // No snapshot directory: nothing to answer from.
    }
    const valid =
      cache !== null &&
      current !== undefined &&
      cache.dir === resolve(dir) &&
      current.length === cache.fingerprint.length &&
      current.every((entry, i) => entry === cache.fingerprint[i]);
    snapshots.set(key, valid ? new Map(Object.entries(cache.files)) : null);
  }
  return snapshots.get(key) ?? undefined;
}

/** The lead table in `dir` as validated at build time, or undefined when the copy is not of that file as it is now. */
export function cachedLeads(dir: string, cachePath = SNAPSHOT_CACHE): LeadTable | undefined {
  const leads = readCopy(cachePath)?.leads;
  if (!leads) return undefined;
  try {
    return leads.fingerprint === fileFingerprint(resolve(dir, LEADS_NAME)) ? leads.table : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the copy from files that were just read and validated from `dir`. */
export async function writeSnapshotCache(
  dir: string,
  files: Record<string, IndexFile>,
  leads?: { dir: string; table: LeadTable },
  cachePath = SNAPSHOT_CACHE,
): Promise<void> {
  const cache: SnapshotCacheFile = {
    version: CACHE_VERSION,
    dir: resolve(dir),
    fingerprint: fingerprint(dir),
    files,
    ...(leads ? { leads: { fingerprint: fileFingerprint(resolve(leads.dir, LEADS_NAME)), table: leads.table } } : {}),
  };
  await writeFileAtomic(cachePath, JSON.stringify(cache));
  copies.delete(cachePath);
  snapshots.delete(`${resolve(dir)}\0${cachePath}`);
}
