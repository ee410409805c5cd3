// The incident index: one JSON file per provider under a directory, layered over the embedded snapshot.
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
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

  /**
   * Replaces several provider files as one batch (call it holding the index lock). Every file is validated and
   * written to a temp file first; a journal naming them is the commit point; then they are renamed into place. A
   * failure before the journal writes nothing; a crash after it is finished by `recoverBatch` on the next run.
   */
  async writeBatch(files: IndexFile[]): Promise<void> {
    if (files.length === 0) return;
    const checked = files.map((file) => IndexFileSchema.parse({ ...file, schemaVersion: INDEX_SCHEMA_VERSION }));
    await mkdir(this.dir, { recursive: true });
    const token = randomBytes(6).toString('hex');
    const moves: Array<{ temp: string; target: string }> = [];
    try {
      for (const file of checked) {
        const temp = `.batch-${token}.${file.provider}.json.tmp`;
        await writeSynced(join(this.dir, temp), `${JSON.stringify(file, null, 2)}\n`);
        moves.push({ temp, target: `${file.provider}.json` });
      }
      await writeSynced(join(this.dir, `.batch-${token}.journal`), JSON.stringify(moves));
    } catch (error) {
      for (const move of moves) await rm(join(this.dir, move.temp), { force: true });
      throw error;
    }
    await this.finishBatch(`.batch-${token}.journal`, moves);
  }

  /** Completes a batch a crash interrupted after its commit point, and removes temp files of batches that never got one. */
  async recoverBatch(): Promise<void> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    for (const name of names.filter((entry) => /^\.batch-[0-9a-f]{12}\.journal$/.test(entry))) {
      const moves = JSON.parse(await readFile(join(this.dir, name), 'utf8').catch(() => '[]')) as Array<{
        temp: string;
        target: string;
      }>;
      await this.finishBatch(
        name,
        moves.filter((move) => names.includes(move.temp) && /^[\w.-]+$/.test(move.target)),
      );
    }
    const journals = new Set(names.filter((entry) => entry.endsWith('.journal')).map((entry) => entry.slice(0, 19)));
    for (const name of names)
      if (/^\.batch-[0-9a-f]{12}\..*\.json\.tmp$/.test(name) && !journals.has(name.slice(0, 19)))
        await rm(join(this.dir, name), { force: true });
  }

  private async finishBatch(journal: string, moves: Array<{ temp: string; target: string }>): Promise<void> {
    for (const move of moves) await rename(join(this.dir, move.temp), join(this.dir, move.target));
    await syncDir(this.dir);
    await rm(join(this.dir, journal), { force: true });
  }
}

async function writeSynced(path: string, content: string): Promise<void> {
  const handle = await open(path, 'wx', 0o644);
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Not every platform lets a directory be opened; the renames are still in order.
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
