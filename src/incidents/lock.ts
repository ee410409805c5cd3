// One writer at a time per index directory (sync or import). The lock file names its owner (pid, host, start)
// and is touched while held, so a lock left by a killed process is recognised (dead pid on this host, or no heartbeat) and taken over.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { link, mkdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LockError } from '../errors.js';

export const LOCK_NAME = '.sync.lock';

export interface LockOptions {
  /** How long to wait for another sync to finish before giving up. */
  waitMs: number;
  /** A lock whose heartbeat is older than this is stale even if its owner cannot be checked. */
  staleMs?: number;
  heartbeatMs?: number;
  signal?: AbortSignal;
}

interface LockOwner {
  pid: number;
  host: string;
  startedAt: string;
  token: string;
}

export interface HeldLock {
  release(): Promise<void>;
  /** Set when a stale lock was taken over, naming its former owner. */
  recovered?: string;
}

export async function acquireLock(dir: string, options: LockOptions): Promise<HeldLock> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, LOCK_NAME);
  const staleMs = options.staleMs ?? 120_000;
  const owner: LockOwner = {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date().toISOString(),
    token: randomBytes(8).toString('hex'),
  };
  // Written whole to a private file, then hard-linked into place: link() fails if the lock exists, so the
  // lock appears atomically and is never seen half-written.
  const temp = join(dir, `.sync.lock.${owner.token}`);
  await writeFile(temp, JSON.stringify(owner));
  const deadline = Date.now() + options.waitMs;
  let recovered: string | undefined;
  try {
    for (;;) {
      try {
        await link(temp, path);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = await readOwner(path);
      if (holder === 'gone') continue;
      if (await isStale(path, holder, staleMs)) {
        // Renaming first means two processes breaking the same stale lock cannot both remove a fresh one.
        const aside = `${path}.stale-${owner.token}`;
        try {
          await rename(path, aside);
          await rm(aside, { force: true });
          recovered = describeOwner(holder);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
        continue;
      }
      if (Date.now() >= deadline || options.signal?.aborted) {
        throw new LockError(
          `another sync is running on ${dir} (${describeOwner(holder)}); try again when it has finished`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 150));
    }
  } finally {
    await rm(temp, { force: true });
  }
  const heartbeat = setInterval(
    () => {
      const time = new Date();
      utimes(path, time, time).catch(() => undefined);
    },
    options.heartbeatMs ?? Math.min(15_000, staleMs / 4),
  );
  heartbeat.unref();
  return {
    ...(recovered ? { recovered } : {}),
    async release() {
      clearInterval(heartbeat);
      const holder = await readOwner(path);
      if (holder !== 'gone' && holder !== 'unreadable' && holder.token === owner.token) await rm(path, { force: true });
    },
  };
}

async function readOwner(path: string): Promise<LockOwner | 'gone' | 'unreadable'> {
  try {
    const data = JSON.parse(await readFile(path, 'utf8')) as Partial<LockOwner>;
    if (typeof data.pid === 'number' && typeof data.host === 'string' && typeof data.token === 'string')
      return data as LockOwner;
    return 'unreadable';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    return 'unreadable';
  }
}

async function isStale(path: string, holder: LockOwner | 'unreadable', staleMs: number): Promise<boolean> {
  if (holder !== 'unreadable' && holder.host === hostname() && !isAlive(holder.pid)) return true;
  try {
    return Date.now() - (await stat(path)).mtimeMs > staleMs;
  } catch {
    return false; // gone meanwhile: the next link() attempt decides
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function describeOwner(holder: LockOwner | 'unreadable'): string {
  return holder === 'unreadable' ? 'owner unreadable' : `pid ${holder.pid} on ${holder.host} since ${holder.startedAt}`;
}
