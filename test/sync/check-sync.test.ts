import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { IncidentIndex } from '../../src/incidents/store.js';
import { syncBeforeCheck } from '../../src/sync/check-sync.js';
import { acquireLock } from '../../src/incidents/lock.js';
import { tempDir, testCatalog } from '../helpers/catalog.js';
import { startStatusServer } from '../helpers/status-server.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'sync');
// The gate runs its sync in the built worker (npm test builds first); from the sources it would run in-process.
const BUILT_WORKER = new URL('../../dist/sync/sync-worker.js', import.meta.url);
const EMPTY_MAINT = '{"page":{"id":"x","name":"x","url":"https://status.example.com"},"scheduled_maintenances":[]}';

function project(): string {
  const dir = tempDir('downstack-project-');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', dependencies: { 'gh-sdk': '^1.0.0' } }));
  return dir;
}

describe('check --sync', () => {
  it("syncs the stack's providers when the pages answer", async () => {
    const server = await startStatusServer({
      '/gh/api/v2/incidents.json': { body: readFileSync(join(FIXTURES, 'statuspage/incidents-github.json'), 'utf8') },
      '/gh/api/v2/scheduled-maintenances.json': { body: EMPTY_MAINT },
    });
    try {
      const catalog = testCatalog([], {
        extra: [
          { id: 'gh', platform: 'statuspage', url: `${server.url}/gh` },
          { id: 'unused', platform: 'statuspage', url: `${server.url}/unused` },
        ],
      });
      const indexDir = tempDir();
      const warnings: string[] = [];
      const report = await syncBeforeCheck({
        paths: [project()],
        indexDir,
        catalog,
        warn: (line) => warnings.push(line.text),
      });
      expect(report?.providers.map((entry) => [entry.provider, entry.outcome])).toEqual([['gh', 'synced']]);
      expect(warnings).toEqual([]);
      expect((await new IncidentIndex(indexDir, tempDir()).read('gh')).incidents).toHaveLength(2);
      expect(server.counts.get('/unused/api/v2/incidents.json')).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  it('offline: warns, keeps the local index and never throws', async () => {
    const server = await startStatusServer();
    const url = `${server.url}/gh`;
    await server.close();
    const catalog = testCatalog([], { extra: [{ id: 'gh', platform: 'statuspage', url }] });
    const indexDir = tempDir();
    await new IncidentIndex(indexDir).write({
      schemaVersion: 1,
      provider: 'gh',
      syncedAt: '2026-09-01T00:00:00Z',
      incidents: [],
    });
    const before = readFileSync(join(indexDir, 'gh.json'), 'utf8');
    const warnings: string[] = [];
    await syncBeforeCheck({
      paths: [project()],
      indexDir,
      catalog,
      warn: (line) => warnings.push(line.text),
      deadlineMs: 3_000,
    });
    expect(warnings[0]).toMatch(/^warning: could not sync \(offline\?\); using the local index for gh/);
    expect(warnings.join('\n')).toMatch(/ECONNREFUSED/);
    expect(readFileSync(join(indexDir, 'gh.json'), 'utf8')).toBe(before);
  });

  it('pages whose payloads take longer to read than the deadline are abandoned at the deadline, parsing included', async () => {
    // Six providers, each sending about 28 MB of realistic incidents (mostly HTML update bodies) compressed: the
    // bodies arrive well within the deadline, and reading them all takes far longer than it allows.
    const body = `<p>${'We are investigating elevated error rates on the API and the dashboard. '.repeat(120)}</p>`;
    const incidents = Array.from({ length: 600 }, (_, i) => ({
      id: `slow${i}`,
      name: `Incident ${i}`,
      status: 'resolved',
      impact: 'minor',
      created_at: '2024-01-01T00:00:00Z',
      updated_at: '2024-01-01T01:00:00Z',
      resolved_at: '2024-01-01T01:00:00Z',
      started_at: '2024-01-01T00:00:00Z',
      shortlink: `https://stspg.io/slow${i}`,
      page_id: 'p',
      incident_updates: Array.from({ length: 5 }, (_, j) => ({
        id: `slow${i}-${j}`,
        status: 'investigating',
        body,
        created_at: `2024-01-01T00:0${j}:00Z`,
        display_at: `2024-01-01T00:0${j}:00Z`,
        affected_components: [],
      })),
    }));
    const payload = gzipSync(JSON.stringify({ page: { id: 'p' }, incidents }));
    const ids = ['s1', 's2', 's3', 's4', 's5', 's6'];
    const server = await startStatusServer();
    for (const id of ids) {
      server.routes.set(`/${id}/api/v2/incidents.json`, { body: payload, headers: { 'content-encoding': 'gzip' } });
      server.routes.set(`/${id}/api/v2/scheduled-maintenances.json`, { body: EMPTY_MAINT });
    }
    try {
      const catalog = testCatalog([], {
        extra: ids.map((id) => ({ id, platform: 'statuspage', url: `${server.url}/${id}` })),
      });
      const indexDir = tempDir();
      const dir = tempDir('downstack-project-');
      const dependencies = Object.fromEntries(ids.map((id) => [`${id}-sdk`, '^1.0.0']));
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', dependencies }));
      const warnings: string[] = [];
      const report = await syncBeforeCheck({
        paths: [dir],
        indexDir,
        catalog,
        warn: (line) => warnings.push(line.text),
        deadlineMs: 3_000,
        worker: BUILT_WORKER,
      });
      expect(report).toBeUndefined();
      // Every body was delivered whole: what the deadline cut short was the reading.
      for (const id of ids) expect(server.finished.get(`/${id}/api/v2/incidents.json`)).toBe(1);
      expect(warnings).toEqual([
        'warning: could not sync before the check (the status pages were not fetched and read within the 3 s deadline); using the local index',
      ]);
      // Not every provider was read and written, and the lock is free again for the next run.
      expect(readdirSync(indexDir).filter((name) => name.endsWith('.json')).length).toBeLessThan(ids.length);
      await (await acquireLock(indexDir, { waitMs: 0 })).release();
    } finally {
      await server.close();
    }
  });

  it('a sync already running: gives up at the deadline with a warning instead of waiting it out', async () => {
    const catalog = testCatalog([], { extra: [{ id: 'gh', platform: 'statuspage', url: 'http://127.0.0.1:9/gh' }] });
    const indexDir = tempDir();
    const held = await acquireLock(indexDir, { waitMs: 0 });
    try {
      const warnings: string[] = [];
      const report = await syncBeforeCheck({
        paths: [project()],
        indexDir,
        catalog,
        warn: (line) => warnings.push(line.text),
        deadlineMs: 300,
      });
      expect(report).toBeUndefined();
      expect(warnings[0]).toMatch(/could not sync before the check \(another sync is running/);
    } finally {
      await held.release();
    }
  });
});
