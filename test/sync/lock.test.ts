import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LockError } from '../../src/errors.js';
import { acquireLock, LOCK_NAME } from '../../src/incidents/lock.js';
import { tempDir } from '../helpers/catalog.js';

/** The pid of a process that has already exited (one for the whole file: spawning one costs a quarter second). */
let exited: number | undefined;
function deadPid(): number {
  exited ??= Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());
  return exited;
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

/** A lock file left by a process that has died, in a fresh directory. */
function staleLockDir(): string {
  const dir = tempDir();
  writeFileSync(
    join(dir, LOCK_NAME),
    JSON.stringify({ pid: deadPid(), host: hostname(), startedAt: '2026-09-30T10:00:00Z', token: 'dead' }),
  );
  return dir;
}

// A process that tries once to take the lock when told "go" on stdin, prints "held" or "busy", and keeps a lock it
// got until it is killed (so no later process can rightly take it over within a round).
const CONTENDER = `
const { acquireLock } = await import(process.argv[1]);
process.stdout.write('ready;');
process.stdin.once('data', async () => {
  try {
    await acquireLock(process.argv[2], { waitMs: 0 });
    process.stdout.write('held');
  } catch (error) {
    process.stdout.write(error.name === 'LockError' ? 'busy' : \`error: \${error.message}\`);
    process.exit(0);
  }
});
`;
const BUILT_LOCK = new URL('../../dist/incidents/lock.js', import.meta.url).href;

/** Starts `count` processes, says "go" to all once all are ready, and resolves with what each answered. */
async function race(dir: string, count: number): Promise<string[]> {
  const children = Array.from({ length: count }, () =>
    spawn(process.execPath, ['--input-type=module', '-e', CONTENDER, BUILT_LOCK, dir]),
  );
  const said = children.map(() => '');
  let wake = () => {};
  children.forEach((child, i) => {
    const hear = (text: string) => {
      said[i] += text;
      wake();
    };
    child.stdout.on('data', (chunk: Buffer) => hear(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => hear(chunk.toString()));
    // 'close', not 'exit': a process can exit before its last output has been read, and its answer must come first.
    child.on('close', () => hear(';exit'));
  });
  const until = async (pattern: RegExp) => {
    while (!said.every((text) => pattern.test(text))) await new Promise<void>((resolve) => (wake = resolve));
  };
  try {
    await until(/ready;|exit/);
    for (const child of children) child.stdin.write('go');
    await until(/held|busy|error|exit/);
    return said.map((text) => text.replace('ready;', '').replace(/;exit$/, ''));
  } finally {
    for (const child of children) child.kill('SIGKILL');
  }
}

describe('taking over a stale lock', () => {
  it('gives it to exactly one of many real processes racing for it, round after round', async () => {
    // Before the claims, several processes held the lock in about one round of three.
    for (let round = 0; round < 8; round++) {
      const dir = staleLockDir();
      const outcomes = await race(dir, 10);
      expect(outcomes.filter((outcome) => !['held', 'busy'].includes(outcome))).toEqual([]);
      expect(
        outcomes.filter((outcome) => outcome === 'held'),
        `round ${round}: ${outcomes.join(' ')}`,
      ).toHaveLength(1);
      // The claims that decided it are gone; only the winner's lock is left.
      expect(readdirSync(dir).filter((name) => name.startsWith(LOCK_NAME))).toEqual([LOCK_NAME]);
    }
  });

  it('gives it to exactly one of many concurrent callers in one process', async () => {
    for (let round = 0; round < 40; round++) {
      const dir = staleLockDir();
      const results = await Promise.allSettled(Array.from({ length: 8 }, () => acquireLock(dir, { waitMs: 0 })));
      const held = results.filter((result) => result.status === 'fulfilled');
      expect(held).toHaveLength(1);
      expect(results.filter((result) => result.status === 'rejected').map((result) => result.reason)).toEqual(
        Array(7).fill(expect.any(LockError)),
      );
      await (held[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof acquireLock>>>).value.release();
      expect(existsSync(join(dir, LOCK_NAME))).toBe(false);
    }
  });

  it('passes over a claim left by a process that died mid-takeover', async () => {
    const dir = staleLockDir();
    const { createHash } = await import('node:crypto');
    const claim = `${LOCK_NAME}.claim-${createHash('sha256').update('dead').digest('hex').slice(0, 16)}-1`;
    writeFileSync(join(dir, claim), JSON.stringify({ pid: deadPid(), host: hostname(), token: 'crashed' }));
    const held = await acquireLock(dir, { waitMs: 0 });
    expect(held.recovered).toMatch(/^pid \d+ on /);
    expect(readdirSync(dir).filter((name) => name.includes('claim'))).toEqual([]);
    await held.release();
  });

  it('release never removes a lock that another process has taken over meanwhile', async () => {
    const dir = tempDir();
    const first = await acquireLock(dir, { waitMs: 0, staleMs: 60_000 });
    // Its heartbeat stops being seen (a suspended process, a clock jump): another process takes the lock over.
    const old = new Date(Date.now() - 120_000);
    utimesSync(join(dir, LOCK_NAME), old, old);
    const second = await acquireLock(dir, { waitMs: 0, staleMs: 60_000 });
    expect(second.recovered).toBeDefined();
    await first.release();
    expect(existsSync(join(dir, LOCK_NAME))).toBe(true);
    await expect(acquireLock(dir, { waitMs: 0 })).rejects.toThrow(LockError);
    await second.release();
    expect(existsSync(join(dir, LOCK_NAME))).toBe(false);
  });
});
