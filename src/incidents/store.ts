// The incident index: one JSON file per provider under a directory, layered over the embedded snapshot, which is
// layered over the bundled history. For one provider: the index's version of an incident wins over the snapshot's,
// which wins over the history's (the snapshot's are hand-checked; the build script leaves out of the history the
// incidents the snapshot already tells).
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { lstat, mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import envPaths from 'env-paths';
import { DownstackError, IndexError, type ParseError } from '../errors.js';
import { parseJsonText } from '../json-text.js';
import { writeFileAtomic } from '../fs-atomic.js';
import type { Incident } from '../model.js';
import { HISTORY_DIR, SNAPSHOT_DIR } from '../paths.js';
import { type HistoryExtent, type HistoryWindow, historyExtent, readHistory } from './history.js';
import type { IndexFile } from './schema.js';
import { cachedSnapshot } from './snapshot-cache.js';
import { byText } from '../text-order.js';

export interface ProviderIncidents {
  provider: string;
  incidents: Incident[];
  /** From the index file, when the provider was ever synced. */
  syncedAt?: string;
  fromIndex: number;
  fromSnapshot: number;
  fromHistory: number;
  /** The provider's whole bundled history, of which `fromHistory` were read for the window. */
  historyExtent?: HistoryExtent;
  /** Damaged files: named, skipped, and never overwritten silently. */
  problems: string[];
}

/** `--index DIR` wins, then `DOWNSTACK_INDEX`, then the user's cache directory. */
export function resolveIndexDir(flag: string | undefined, env: string | undefined): string {
  if (flag) return flag;
  if (env) return env;
  return join(envPaths('downstack', { suffix: '' }).cache, 'index');
}

const WRITE_FAILURES: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ENOTDIR: 'part of the path is a file, not a directory',
  EEXIST: 'it is a file, not a directory',
  ENOENT: 'files cannot be created there',
};

/** A file-system error while creating, locking or writing the index, as one line a user can act on (exit 2). */
export function indexWriteError(error: unknown, dir: string): unknown {
  const reason = WRITE_FAILURES[(error as NodeJS.ErrnoException | undefined)?.code ?? ''];
  if (error instanceof DownstackError || !reason) return error;
  return new IndexError(`cannot write to the index directory ${dir}: ${reason}`);
}

export class IncidentIndex {
  constructor(
    readonly dir: string,
    /** null leaves the embedded snapshot out (`--no-snapshot`). */
    private readonly snapshotDir: string | null = SNAPSHOT_DIR,
    /** null leaves the bundled history out (`--no-snapshot` too: both ship with the package). */
    private readonly historyDir: string | null = snapshotDir === null ? null : HISTORY_DIR,
  ) {}

  fileFor(provider: string): string {
    return join(this.dir, `${provider}.json`);
  }

  /** The provider's index file, or undefined when it has none. Throws IndexError when the file is damaged. */
  async readIndexFile(provider: string): Promise<IndexFile | undefined> {
    return readIndexFile(this.fileFor(provider), provider);
  }

  /**
   * Index incidents layered over the snapshot's and the history's (the index wins for the same id). With a window,
   * the history is read only where it may overlap it (the snapshot and the index are small and read whole).
   */
  async read(provider: string, window?: HistoryWindow): Promise<ProviderIncidents> {
    const problems: string[] = [];
    const history = this.historyDir === null ? [] : readHistory(this.historyDir, provider, window, problems);
    const extent = this.historyDir === null ? undefined : historyExtent(this.historyDir, provider);
    const snapshot =
      this.snapshotDir === null
        ? undefined
        : await readSnapshotFile(this.snapshotDir, provider).catch((error: Error) => {
            problems.push(error.message);
            return undefined;
          });
    const indexed = await this.readIndexFile(provider).catch((error: Error) => {
      problems.push(error.message);
      return undefined;
    });
    const merged = new Map<string, Incident>();
    for (const incident of history) merged.set(incident.id, incident);
    for (const incident of snapshot?.incidents ?? []) merged.set(incident.id, incident as Incident);
    for (const incident of indexed?.incidents ?? []) merged.set(incident.id, incident as Incident);
    return {
      provider,
      incidents: [...merged.values()].sort((a, b) => byText(b.startedAt, a.startedAt)),
      syncedAt: indexed?.syncedAt,
      fromIndex: indexed?.incidents.length ?? 0,
      fromSnapshot: snapshot?.incidents.length ?? 0,
      fromHistory: history.length,
      ...(extent ? { historyExtent: extent } : {}),
      problems,
    };
  }

  /**
   * Replaces the provider's file atomically (temp file, fsync, rename). A file there that downstack did not write
   * is never replaced: the index directory may be shared with other files (see assertOwnFile).
   */
  async write(file: IndexFile): Promise<void> {
    const { IndexFileSchema, INDEX_SCHEMA_VERSION } = await import('./schema.js');
    const checked = IndexFileSchema.parse({ ...file, schemaVersion: INDEX_SCHEMA_VERSION });
    await mkdir(this.dir, { recursive: true });
    await this.assertOwnFile(file.provider);
    await writeFileAtomic(this.fileFor(file.provider), `${JSON.stringify(checked, null, 2)}\n`);
  }

  /**
   * Replaces several provider files as one batch (call it holding the index lock). Every file is validated and
   * written to a temp file first; a journal naming them is the commit point; then they are renamed into place. A
   * failure before the journal writes nothing; a crash after it is finished by `recoverBatch` on the next run.
   */
  async writeBatch(files: IndexFile[]): Promise<void> {
    if (files.length === 0) return;
    const { IndexFileSchema, INDEX_SCHEMA_VERSION } = await import('./schema.js');
    const checked = files.map((file) => IndexFileSchema.parse({ ...file, schemaVersion: INDEX_SCHEMA_VERSION }));
    await mkdir(this.dir, { recursive: true });
    // Checked for every file before any is written, so a foreign file stops the batch with nothing changed.
    for (const file of checked) await this.assertOwnFile(file.provider);
    const { randomBytes } = await import('node:crypto');
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

  /**
   * Throws IndexError unless the provider's file is absent or one downstack wrote (even a damaged one): an index
   * file opens with its schemaVersion and the provider's id, which a package.json or anyone else's file does not.
   */
  async assertOwnFile(provider: string): Promise<void> {
    const path = this.fileFor(provider);
    const info = await lstat(path).catch(() => undefined);
    if (!info) return;
    let head = '';
    if (info.isFile()) {
      const handle = await open(path, 'r');
      try {
        const buffer = Buffer.alloc(1024);
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
        head = buffer.subarray(0, bytesRead).toString('utf8');
      } finally {
        await handle.close();
      }
    }
    const id = provider.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const ours =
      /^\s*\{/.test(head) &&
      /"schemaVersion"\s*:\s*\d/.test(head) &&
      new RegExp(`"provider"\\s*:\\s*"${id}"`).test(head);
    if (!ours)
      throw new IndexError(
        `${path} is not a downstack index file; downstack leaves files it did not write alone (move it, or choose another index directory)`,
      );
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

/** The embedded snapshot's file for a provider: from the build-time copy while it is current (snapshot-cache.ts). */
async function readSnapshotFile(dir: string, provider: string): Promise<IndexFile | undefined> {
  const copy = cachedSnapshot(dir);
  if (copy) return copy.get(provider);
  return readIndexFile(join(dir, `${provider}.json`), provider);
}

async function readIndexFile(path: string, provider: string): Promise<IndexFile | undefined> {
  const text = readOwnFile(path);
  if (text === undefined) return undefined;
  let data: unknown;
  try {
    data = parseJsonText(text, path);
  } catch (error) {
    // The reason and the line, never the content: a damaged file may be anything, even a secret.
    const { file, line, message } = error as ParseError;
    throw new IndexError(
      `${file}${line ? `:${line}` : ''}: damaged index file (${message}); ignored — run \`downstack sync --provider ${provider}\` to rebuild it`,
    );
  }
  // The schema (and zod) is loaded only once there is a file to check.
  const { IndexFileSchema, INDEX_SCHEMA_VERSION } = await import('./schema.js');
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

/**
 * An index file's text, or undefined when there is none. Only a regular file is read: a symbolic link is refused
 * where it is opened (O_NOFOLLOW, so nothing can swap it in between), and a FIFO or device is never waited on. Read
 * synchronously, like the bundled history (src/incidents/history.ts says why).
 */
function readOwnFile(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP')
      throw new IndexError(
        `${path}: is a symbolic link; downstack reads only index files it wrote itself, so it is ignored (remove the link, then sync)`,
      );
    throw new IndexError(`${path}: cannot read (${code ?? (error as Error).message})`);
  }
  try {
    if (!fstatSync(fd).isFile())
      throw new IndexError(
        `${path}: is not a regular file; downstack reads only index files it wrote itself, so it is ignored`,
      );
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}
