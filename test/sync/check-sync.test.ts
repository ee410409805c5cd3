import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IncidentIndex } from '../../src/incidents/store.js';
import { syncBeforeCheck } from '../../src/sync/check-sync.js';
import { acquireLock } from '../../src/incidents/lock.js';
import { tempDir, testCatalog } from '../helpers/catalog.js';
import { startStatusServer } from '../helpers/status-server.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'sync');
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
