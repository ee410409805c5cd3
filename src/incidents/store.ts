// The incident index: one JSON file per provider under a directory, layered over the embedded snapshot.
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import envPaths from 'env-paths';
import { IndexError } from '../errors.js';
import { writeFileAtomic } from '../fs-atomic.js';
import type { Incident } from '../model.js';
import { SNAPSHOT_DIR } from '../paths.js';
import { INDEX_SCHEMA_VERSION, IndexFileSchema, type IndexFile } from './schema.js';

export interface ProviderIncidents {
  provider: string;
  incidents: Incident[];
  /** From the index file, when the provider was ever synced. */
  syncedAt?: string;
  fromIndex: number;
  fromSnapshot: number;
  /** Damaged files: named, skipped, and never overwritten silently. */
  problems: string[];
}

/** `--index DIR` wins, then `DOWNSTACK_INDEX`, then the user's cache directory. */
export function resolveIndexDir(flag: string | undefined, env: string | undefined): string {
  if (flag) return flag;
  if (env) return env;
  return join(envPaths('downstack', { suffix: '' }).cache, 'index');
}

export class IncidentIndex {
  constructor(
    readonly dir: string,
    /** null leaves the embedded snapshot out (`--no-snapshot`). */
    private readonly snapshotDir: string | null = SNAPSHOT_DIR,
  ) {}

  fileFor(provider: string): string {
    return join(this.dir, `${provider}.json`);
  }

  /** The provider's index file, or undefined when it has none. Throws IndexError when the file is damaged. */
  async readIndexFile(provider: string): Promise<IndexFile | undefined> {
    return readIndexFile(this.fileFor(provider), provider);
  }

  /** Index incidents layered over the snapshot's (the index wins for the same id). */
  async read(provider: string): Promise<ProviderIncidents> {
    const problems: string[] = [];
    const snapshot =
      this.snapshotDir === null
        ? undefined
        : await readIndexFile(join(this.snapshotDir, `${provider}.json`), provider).catch((error: Error) => {
            problems.push(error.message);
            return undefined;
          });
    const indexed = await this.readIndexFile(provider).catch((error: Error) => {
      problems.push(error.message);
      return undefined;
    });
    const merged = new Map<string, Incident>();
    for (const incident of snapshot?.incidents ?? []) merged.set(incident.id, incident as Incident);
    for (const incident of indexed?.incidents ?? []) merged.set(incident.id, incident as Incident);
    return {
      provider,
      incidents: [...merged.values()].sort((a, b) => b.startedAt.localeCompare(a.startedAt)),
      syncedAt: indexed?.syncedAt,
      fromIndex: indexed?.incidents.length ?? 0,
      fromSnapshot: snapshot?.incidents.length ?? 0,
      problems,
    };
  }

  /** Replaces the provider's file atomically (temp file, fsync, rename). */
  async write(file: IndexFile): Promise<void> {
    const checked = IndexFileSchema.parse({ ...file, schemaVersion: INDEX_SCHEMA_VERSION });
    await mkdir(this.dir, { recursive: true });
    await writeFileAtomic(this.fileFor(file.provider), `${JSON.stringify(checked, null, 2)}\n`);
  }
}

async function readIndexFile(path: string, provider: string): Promise<IndexFile | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new IndexError(`${path}: ${(error as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new IndexError(
      `${path}: damaged index file (${(error as Error).message}); ignored — run \`downstack sync --provider ${provider}\` to rebuild it`,
    );
  }
  const result = IndexFileSchema.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new IndexError(
      `${path}: index file does not match schema version ${INDEX_SCHEMA_VERSION} (${issue?.path.join('.')}: ${issue?.message}); ignored`,
    );
  }
  if (result.data.provider !== provider)
    throw new IndexError(`${path}: holds provider "${result.data.provider}", expected "${provider}"; ignored`);
  return result.data;
}
