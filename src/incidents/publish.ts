// `sync --publish DIR`: the index as a static, self-describing directory that any static host or object store can
// serve to a fleet (docs/fleet.md). One file per provider, and a manifest naming each file with its sha256, its size
// and when that provider was last synced, so a reader can tell a stale, truncated or tampered file from a good one.
// Provider files are written first and the manifest last, each atomically: a reader sees the old manifest or the new.
import { createHash } from 'node:crypto';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../fs-atomic.js';
import { VERSION } from '../version.js';
import { INDEX_SCHEMA_VERSION, type IndexFile } from './schema.js';
import type { IncidentIndex } from './store.js';

export const MANIFEST_NAME = 'manifest.json';
export const PUBLISHED_FORMAT = 'downstack-index';
const PROVIDERS_DIR = 'providers';

const ProviderEntrySchema = z.object({
  /** Relative to the manifest. */
  file: z.string().regex(/^providers\/[a-z0-9][a-z0-9-]*\.json$/, { message: 'must be providers/<id>.json' }),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, { message: 'must be a hex sha256' }),
  bytes: z.number().int().min(0),
  /** When this provider was last synced by the publisher (absent when it never was). */
  syncedAt: z.string().optional(),
  incidents: z.number().int().min(0),
});

export const ManifestSchema = z.object({
  format: z.literal(PUBLISHED_FORMAT),
  schemaVersion: z.literal(1),
  /** The index file schema every provider file follows. */
  indexSchemaVersion: z.literal(INDEX_SCHEMA_VERSION),
  publishedAt: z.string(),
  generator: z.string(),
  description: z.string().optional(),
  providers: z.record(z.string().regex(/^[a-z0-9][a-z0-9-]*$/), ProviderEntrySchema),
});

export type Manifest = z.infer<typeof ManifestSchema>;
export type ManifestEntry = z.infer<typeof ProviderEntrySchema>;

export interface PublishReport {
  dir: string;
  providers: number;
  incidents: number;
  bytes: number;
  /** Index files that could not be read (damaged): left out of the published index, named here. */
  skipped: string[];
  /** Files of providers no longer in the index, removed from the published directory. */
  removed: string[];
}

export function sha256(bytes: string | Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** What a published provider file holds: the index file without the publisher's own HTTP validators. */
export function publishedText(file: IndexFile): string {
  const { http: _validators, ...rest } = file;
  return `${JSON.stringify(rest)}\n`;
}

/** Writes every provider file of `index` and then the manifest into `dir`. */
export async function publishIndex(index: IncidentIndex, dir: string, now: Date): Promise<PublishReport> {
  const target = join(dir, PROVIDERS_DIR);
  await mkdir(target, { recursive: true });
  const ids = (await readdir(index.dir).catch(() => []))
    .filter((name) => /^[a-z0-9][a-z0-9-]*\.json$/.test(name))
    .map((name) => name.slice(0, -'.json'.length))
    .sort();
  const providers: Record<string, ManifestEntry> = {};
  const skipped: string[] = [];
  let incidents = 0;
  let bytes = 0;
  for (const id of ids) {
    let file: IndexFile | undefined;
    try {
      file = await index.readIndexFile(id);
    } catch (error) {
      skipped.push((error as Error).message);
      continue;
    }
    if (!file) continue;
    const text = publishedText(file);
    const size = Buffer.byteLength(text);
    await writeFileAtomic(join(target, `${id}.json`), text);
    providers[id] = {
      file: `${PROVIDERS_DIR}/${id}.json`,
      sha256: sha256(text),
      bytes: size,
      ...(file.syncedAt ? { syncedAt: file.syncedAt } : {}),
      incidents: file.incidents.length,
    };
    incidents += file.incidents.length;
    bytes += size;
  }
  const manifest: Manifest = {
    format: PUBLISHED_FORMAT,
    schemaVersion: 1,
    indexSchemaVersion: INDEX_SCHEMA_VERSION,
    publishedAt: now.toISOString(),
    generator: `downstack/${VERSION}`,
    description:
      'A downstack incident index: one file per provider under providers/, each with its sha256 and last sync time here. Read it with `downstack check --index-url <this URL>`.',
    providers,
  };
  await writeFileAtomic(join(dir, MANIFEST_NAME), `${JSON.stringify(manifest, null, 2)}\n`);
  // Files of providers that left the index go only after the new manifest no longer names them.
  const removed: string[] = [];
  for (const name of await readdir(target)) {
    const id = name.replace(/\.json$/, '');
    if (name.endsWith('.json') && !(id in providers)) {
      await rm(join(target, name), { force: true });
      removed.push(id);
    }
  }
  return { dir, providers: Object.keys(providers).length, incidents, bytes, skipped, removed };
}
