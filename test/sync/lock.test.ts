import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LockError } from '../../src/errors.js';
import { acquireLock, LOCK_NAME } from '../../src/incidents/lock.js';
import { tempDir } from '../helpers/catalog.js';

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

describe('sync lock', () => {
  it('is exclusive while held and released afterwards', async () => {
    const dir = tempDir();
    const held = await acquireLock(dir, { waitMs: 0 });
    expect(JSON.parse(readFileSync(join(dir, LOCK_NAME), 'utf8'))).toMatchObject({
      pid: process.pid,
      host: hostname(),
    });
    await expect(acquireLock(dir, { waitMs: 200 })).rejects.toThrow(LockError);
    await expect(acquireLock(dir, { waitMs: 0 })).rejects.toThrow(/another sync is running .*pid \d+/);
    await held.release();
    expect(existsSync(join(dir, LOCK_NAME))).toBe(false);
    const again = await acquireLock(dir, { waitMs: 0 });
    await again.release();
  });

  it('takes over a lock whose process is dead', async () => {
    const dir = tempDir();
    const pid = deadPid();
    writeFileSync(
      join(dir, LOCK_NAME),
      JSON.stringify({ pid, host: hostname(), startedAt: '2026-09-30T10:00:00Z', token: 'dead' }),
    );
    const held = await acquireLock(dir, { waitMs: 0 });
    expect(held.recovered).toBe(`pid ${pid} on ${hostname()} since 2026-09-30T10:00:00Z`);
    await held.release();
  });

  it('takes over a lock from another host only once its heartbeat is stale', async () => {
    const dir = tempDir();
    const path = join(dir, LOCK_NAME);
    writeFileSync(
      path,
      JSON.stringify({ pid: 1, host: 'another-host', startedAt: '2026-09-30T10:00:00Z', token: 'remote' }),
    );
    await expect(acquireLock(dir, { waitMs: 100, staleMs: 60_000 })).rejects.toThrow(/another-host/);
    const old = new Date(Date.now() - 120_000);
    utimesSync(path, old, old);
    const held = await acquireLock(dir, { waitMs: 0, staleMs: 60_000 });
    expect(held.recovered).toMatch(/another-host/);
    await held.release();
  });

  it('a garbage lock file is stale once old, and a waiter gets the lock when the holder releases', async () => {
    const dir = tempDir();
    const path = join(dir, LOCK_NAME);
    writeFileSync(path, 'not json');
    const old = new Date(Date.now() - 300_000);
    utimesSync(path, old, old);
    const first = await acquireLock(dir, { waitMs: 0 });
    const waiting = acquireLock(dir, { waitMs: 5_000 });
    setTimeout(() => void first.release(), 100);
    const second = await waiting;
    await second.release();
  });
});
