// One writer at a time per index directory (sync or import). The lock file names its owner (pid, host, start, a
// random token) and is touched while held, so a lock left by a killed process is recognised (dead pid on this host,
// or no heartbeat) and taken over.
//
// Taking over is where several processes meet: each sees the same stale lock, and "read it, then remove it" lets a
// slow one remove the fresh lock a faster one has just made. So a lock file is only ever removed by the process
// that holds its claim: a file created exclusively (O_EXCL) and named after that lock's identity. Holding the
// claim, the process reads the lock again and removes it only if it is still the one it judged; nobody else can
// remove it meanwhile, and nobody can make a new one while it exists. Release goes through the same claim.
import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { link, mkdir, readdir, readFile, rm, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LockError } from '../errors.js';

export const LOCK_NAME = '.sync.lock';
/** Claims are held for a moment; one older than this (or whose process died) was left by a crash. */
const CLAIM_STALE_MS = 30_000;

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

/** The owner a lock file names, or 'unreadable' (with what identifies that very file) for a damaged one. */
type Holder = { owner: LockOwner; identity: string } | { owner: 'unreadable'; identity: string };

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
  const temp = join(dir, `${LOCK_NAME}.${owner.token}`);
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
      const holder = await readHolder(path);
      if (holder === 'gone') continue;
      if (await isStale(path, holder, staleMs)) {
        const removed = await removeUnderClaim(path, holder.identity, owner);
        if (removed === 'removed') recovered = describeOwner(holder.owner);
        // Removed, changed meanwhile, or another process is taking it over: look again.
        if (removed !== 'claimed elsewhere') continue;
      }
      if (Date.now() >= deadline || options.signal?.aborted) {
        throw new LockError(
          `another sync is running on ${dir} (${describeOwner(holder.owner)}); try again when it has finished`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 150));
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
      // If another process has judged this lock stale meanwhile, its claim decides; never remove a newer lock.
      await removeUnderClaim(path, owner.token, owner);
    },
  };
}

/**
 * Removes the lock file if it is still the one with `identity`, holding that identity's claim. A claim left by a
 * process that died is passed over by claiming the next level; a live claimer's claim is respected.
 */
async function removeUnderClaim(
  path: string,
  identity: string,
  owner: LockOwner,
): Promise<'removed' | 'changed' | 'claimed elsewhere'> {
  const base = `${path}.claim-${createHash('sha256').update(identity).digest('hex').slice(0, 16)}`;
  // Like the lock, a claim is written whole to a private file and linked into place, so it is never read half-written.
  const temp = `${base}.${owner.token}`;
  await writeFile(temp, JSON.stringify(owner));
  try {
    for (let level = 1; ; level++) {
      const claim = `${base}-${level}`;
      try {
        await link(temp, claim);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        if (await claimAbandoned(claim)) continue;
        return 'claimed elsewhere';
      }
      try {
        const current = await readHolder(path);
        if (current === 'gone' || current.identity !== identity) return 'changed';
        await unlink(path);
        return 'removed';
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'changed';
        throw error;
      } finally {
        await removeClaims(path, base);
      }
    }
  } finally {
    await rm(temp, { force: true });
  }
}

/** This identity's claims, the abandoned ones below ours included, once the claim has done its work. */
async function removeClaims(path: string, base: string): Promise<void> {
  const dir = join(path, '..');
  const level = new RegExp(`^${base.slice(dir.length + 1).replace(/\./g, '\\.')}-\\d+$`);
  for (const name of await readdir(dir).catch(() => [] as string[]))
    if (level.test(name)) await rm(join(dir, name), { force: true });
}

async function claimAbandoned(claim: string): Promise<boolean> {
  try {
    const [text, info] = await Promise.all([readFile(claim, 'utf8'), stat(claim)]);
    const claimer = JSON.parse(text) as Partial<LockOwner>;
    if (typeof claimer.pid === 'number' && claimer.host === hostname() && !isAlive(claimer.pid)) return true;
    return Date.now() - info.mtimeMs > CLAIM_STALE_MS;
  } catch (error) {
    // Gone meanwhile: the level is free again, and the next look decides. Unreadable: not ours to judge but by age.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    const info = await stat(claim).catch(() => undefined);
    return info !== undefined && Date.now() - info.mtimeMs > CLAIM_STALE_MS;
  }
}

async function readHolder(path: string): Promise<Holder | 'gone'> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    return { owner: 'unreadable', identity: await fileIdentity(path) };
  }
  try {
    const data = JSON.parse(text) as Partial<LockOwner>;
    if (typeof data.pid === 'number' && typeof data.host === 'string' && typeof data.token === 'string')
      return { owner: data as LockOwner, identity: data.token };
  } catch {
    // Not JSON: a damaged lock file, identified by the file itself.
  }
  return { owner: 'unreadable', identity: await fileIdentity(path) };
}

/** What tells one damaged lock file from the next: its inode and its content's hash. */
async function fileIdentity(path: string): Promise<string> {
  try {
    const [info, content] = await Promise.all([stat(path), readFile(path)]);
    return `file:${info.ino}:${createHash('sha256').update(content).digest('hex')}`;
  } catch {
    return 'file:gone';
  }
}

async function isStale(path: string, holder: Holder, staleMs: number): Promise<boolean> {
  const { owner } = holder;
  if (owner !== 'unreadable' && owner.host === hostname() && !isAlive(owner.pid)) return true;
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

function describeOwner(owner: LockOwner | 'unreadable'): string {
  return owner === 'unreadable' ? 'owner unreadable' : `pid ${owner.pid} on ${owner.host} since ${owner.startedAt}`;
}
