// `sync --backfill` through the built binary: progress on stderr, Ctrl-C and kill -9 lose nothing that was fetched,
// and the next run fetches only what is left.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IndexFileSchema } from '../../src/incidents/schema.js';
import { tempDir, writeTestCatalog } from '../helpers/catalog.js';
import { type StatusServer, startStatusServer } from '../helpers/status-server.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'downstack.js');
const CODES = Array.from({ length: 30 }, (_, i) => `code${String(i).padStart(8, '0')}`);

function record(code: string, i: number): string {
  const start = Date.UTC(2022, 5, 1 + (i % 28), 10, i);
  const iso = (ms: number) => new Date(ms).toISOString();
  return JSON.stringify({
    page: { id: 'kctbh9vrtdwd', name: 'Example', url: 'https://status.example.com', time_zone: 'Etc/UTC' },
    incident: {
      id: code,
      name: `Disruption with some services ${i}`,
      status: 'resolved',
      created_at: iso(start),
      started_at: iso(start),
      resolved_at: iso(start + 45 * 60_000),
      updated_at: iso(start + 45 * 60_000),
      impact: 'minor',
      shortlink: null,
      incident_updates: [
        {
          id: `${i}b`,
          status: 'resolved',
          body: 'Resolved.',
          created_at: iso(start + 45 * 60_000),
          affected_components: null,
        },
        {
          id: `${i}a`,
          status: 'investigating',
          body: 'Investigating.',
          created_at: iso(start),
          affected_components: null,
        },
      ],
      components: [],
    },
  });
}

let server: StatusServer;
let indexDir: string;
let catalog: string;

beforeEach(async () => {
  server = await startStatusServer({
    '/gh/history?page=1': {
      body: JSON.stringify({
        months: [
          { name: 'June', year: 2022, incidents: CODES.map((code) => ({ code, name: code, impact: 'minor' })) },
          { name: 'May', year: 2022, incidents: [] },
          { name: 'April', year: 2022, incidents: [] },
        ],
      }),
    },
    '/gh/history?page=2': { body: JSON.stringify({ months: [{ name: 'March', year: 1996, incidents: [] }] }) },
  });
  for (const [i, code] of CODES.entries())
    server.routes.set(`/gh/api/v2/incidents/${code}.json`, { body: record(code, i), delayMs: 40 });
  indexDir = tempDir();
  catalog = writeTestCatalog([], { extra: [{ id: 'gh', platform: 'statuspage', url: `${server.url}/gh` }] });
});
afterEach(async () => {
  await server.close();
});

function cli(args: string[], stopWhen?: { signal: NodeJS.Signals; when: () => boolean }) {
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => {
    // As test/helpers/cli.ts runs the binary, plus a signal of our choice: Ctrl-C is SIGINT, a crash SIGKILL.
    const { DOWNSTACK_OFFLINE: _online, ...inherited } = process.env;
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...inherited, NO_COLOR: '1', DOWNSTACK_PROVIDERS_DIR: catalog },
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdin.end();
    const poll = stopWhen
      ? setInterval(() => {
          if (stopWhen.when()) {
            clearInterval(poll);
            child.kill(stopWhen.signal);
          }
        }, 5)
      : undefined;
    child.on('close', (code, signal) => {
      if (poll) clearInterval(poll);
      resolve({ code, signal, stderr });
    });
  });
}

const args = () => ['sync', '--provider', 'gh', '--backfill', '--rate', '40', '--index', indexDir];
const fetchedCodes = () =>
  server.requests.filter((request) => request.path.includes('/api/v2/incidents/')).map((request) => request.path);
const indexedIds = () =>
  existsSync(join(indexDir, 'gh.json'))
    ? IndexFileSchema.parse(JSON.parse(readFileSync(join(indexDir, 'gh.json'), 'utf8'))).incidents.map((i) => i.id)
    : [];

describe('downstack sync --backfill (CLI)', () => {
  it('says what it reads as it goes and sums up', async () => {
    const run = await cli(args());
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^gh: history page 1 \(2022-06\), 30 incidents listed$/m);
    expect(run.stderr).toMatch(/^gh: 25\/30 records fetched$/m);
    expect(run.stderr).toMatch(/^gh: backfilled \(30 records from 2 history pages, 30 new in the index\)$/m);
    expect(run.stderr).toMatch(/^backfill: 30 records fetched, 30 new in the index \(\d+ requests, 0 retries/m);
  });

  it('Ctrl-C merges what was fetched, exits 130, and the next run fetches only the rest', async () => {
    const stopped = await cli(args(), { signal: 'SIGINT', when: () => fetchedCodes().length >= 8 });
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toMatch(/backfill: stopping — merging what was fetched/);
    expect(stopped.stderr).toMatch(/interrupted; run it again to go on/);
    const kept = indexedIds();
    expect(kept.length).toBeGreaterThanOrEqual(6);

    const before = fetchedCodes();
    const next = await cli(args());
    expect(next.code).toBe(0);
    const again = fetchedCodes().slice(before.length);
    expect(again.some((path) => kept.some((id) => path.endsWith(`/${id}.json`)))).toBe(false);
    expect(indexedIds().sort()).toEqual([...CODES].sort());
  });

  it('kill -9 loses nothing already read: the next run merges the journal and fetches at most the records in flight twice', async () => {
    const killed = await cli(args(), { signal: 'SIGKILL', when: () => fetchedCodes().length >= 12 });
    expect(killed.signal).toBe('SIGKILL');
    const asked = fetchedCodes().length;
    const next = await cli(args());
    expect(next.code).toBe(0);
    expect(indexedIds().sort()).toEqual([...CODES].sort());
    // Everything answered before the kill was journalled; only the two requests in flight can be asked again.
    expect(fetchedCodes().length).toBeLessThanOrEqual(CODES.length + 2);
    expect(fetchedCodes().length).toBeGreaterThanOrEqual(Math.max(CODES.length, asked));
  });

  it('refuses --since without --backfill and a rate that is not a positive number', async () => {
    expect((await cli(['sync', '--provider', 'gh', '--since', '1y', '--index', indexDir])).code).toBe(2);
    expect((await cli([...args().slice(0, 4), '--rate', '0', '--index', indexDir])).code).toBe(2);
  });
});
