// `downstack sync` and the check gate through the built CLI, against a loopback server: plain progress lines, exit codes, stack selection, and kill -9.
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IndexFileSchema } from '../../src/incidents/schema.js';
import { LOCK_NAME } from '../../src/incidents/lock.js';
import { tempDir, type TestProvider, writeTestCatalog } from '../helpers/catalog.js';
import { runCli } from '../helpers/cli.js';
import { startStatusServer, type StatusServer } from '../helpers/status-server.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'sync');
const fixture = (path: string) => readFileSync(join(FIXTURES, path), 'utf8');
const EMPTY_MAINT = '{"page":{"id":"x","name":"x","url":"https://status.example.com"},"scheduled_maintenances":[]}';

let server: StatusServer;
let indexDir: string;

beforeEach(async () => {
  server = await startStatusServer();
  indexDir = tempDir();
});
afterEach(async () => {
  await server.close();
});

function provider(id: string, delayMs = 0): TestProvider {
  server.routes.set(`/${id}/api/v2/incidents.json`, { body: fixture('statuspage/incidents-github.json'), delayMs });
  server.routes.set(`/${id}/api/v2/scheduled-maintenances.json`, { body: EMPTY_MAINT, delayMs });
  return { id, platform: 'statuspage', url: `${server.url}/${id}` };
}

describe('downstack sync (CLI)', () => {
  it('prints one line per provider off a terminal, a summary, and exits 1 when a provider failed', async () => {
    const broken: TestProvider = { id: 'broken', platform: 'statuspage', url: `${server.url}/broken` };
    server.routes.set('/broken/api/v2/incidents.json', { status: 404, body: 'gone' });
    server.routes.set('/broken/api/v2/scheduled-maintenances.json', { body: EMPTY_MAINT });
    const catalog = writeTestCatalog([], { extra: [provider('gh'), broken] });
    const run = await runCli(['sync', '--all', '--index', indexDir], { catalog });
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^gh: synced \(2 new; 2 in the index\)$/m);
    expect(run.stderr).toMatch(/^broken: failed: .*incidents\.json: HTTP 404/m);
    expect(run.stderr).toMatch(/^sync: 1 synced, 0 unchanged, 1 failed \(\d+ requests/m);
    expect(run.stderr).not.toMatch(/\r/);
    expect(run.code).toBe(1);

    const again = await runCli(['sync', '--provider', 'gh', '--index', indexDir], { catalog });
    expect(again.stderr).toMatch(/^gh: unchanged \(2 in the index\)$/m);
    expect(again.code).toBe(0);
  });

  it('syncs only the providers of the stack it is pointed at', async () => {
    const catalog = writeTestCatalog([], { extra: [provider('gh'), provider('other')] });
    const project = tempDir('downstack-project-');
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', dependencies: { 'gh-sdk': '^1.0.0' } }));
    const run = await runCli(['sync', project, '--index', indexDir], { catalog });
    expect(run.code).toBe(0);
    expect(readdirSync(indexDir).filter((name) => name.endsWith('.json'))).toEqual(['gh.json']);

    const piped = await runCli(['sync', '-', '--index', indexDir], {
      catalog,
      input: JSON.stringify({ name: 'x', dependencies: { 'other-sdk': '1' } }),
    });
    expect(piped.code).toBe(0);
    expect(
      readdirSync(indexDir)
        .filter((name) => name.endsWith('.json'))
        .sort(),
    ).toEqual(['gh.json', 'other.json']);
  });

  it('rejects an unknown provider and bad numbers as usage errors', async () => {
    const catalog = writeTestCatalog([], { extra: [provider('gh')] });
    expect((await runCli(['sync', '--provider', 'nope', '--index', indexDir], { catalog })).code).toBe(2);
    expect((await runCli(['sync', '--all', '--concurrency', '0', '--index', indexDir], { catalog })).code).toBe(2);
  });

  it('kill -9 in the middle of a sync leaves every index file old or new, and the next sync recovers the lock', async () => {
    const providers = Array.from({ length: 24 }, (_, i) =>
      provider(`p${String(i).padStart(2, '0')}`, 150 + (i % 5) * 50),
    );
    const catalog = writeTestCatalog([], { extra: providers });
    // An older, valid file for every provider: after the kill each must be that one or a complete new one.
    for (const { id } of providers)
      writeFileSync(
        join(indexDir, `${id}.json`),
        `${JSON.stringify({ schemaVersion: 1, provider: id, syncedAt: '2026-01-01T00:00:00Z', incidents: [] }, null, 2)}\n`,
      );
    const written = () =>
      readdirSync(indexDir).some(
        (name) => name.endsWith('.json') && readFileSync(join(indexDir, name), 'utf8').includes('69sb0f8lydp4'),
      );
    const killed = await runCli(['sync', '--all', '--concurrency', '4', '--index', indexDir], {
      catalog,
      killWhen: written,
    });
    expect(killed.signal).toBe('SIGKILL');

    let fresh = 0;
    for (const name of readdirSync(indexDir).filter((entry) => entry.endsWith('.json'))) {
      const file = IndexFileSchema.parse(JSON.parse(readFileSync(join(indexDir, name), 'utf8')));
      if (file.incidents.length > 0) fresh++;
    }
    expect(fresh).toBeGreaterThan(0);
    expect(fresh).toBeLessThan(providers.length);
    expect(existsSync(join(indexDir, LOCK_NAME))).toBe(true);
    // Temp files a killed write may leave are cleaned by a later sync once they are old.
    const leftover = join(indexDir, '.0123456789ab.tmp');
    writeFileSync(leftover, '{"half": ');
    utimesSync(leftover, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));

    const next = await runCli(['sync', '--all', '--index', indexDir], { catalog });
    expect(next.code).toBe(0);
    expect(next.stderr).toMatch(/took over a stale lock \(pid \d+/);
    for (const { id } of providers)
      expect(
        IndexFileSchema.parse(JSON.parse(readFileSync(join(indexDir, `${id}.json`), 'utf8'))).incidents,
      ).toHaveLength(2);
    expect(existsSync(join(indexDir, LOCK_NAME))).toBe(false);
    expect(existsSync(leftover)).toBe(false);
  });
});

describe('check as a pre-deploy gate', () => {
  const started = new Date(Date.now() - 3_600_000).toISOString();
  const openIncident = JSON.stringify({
    page: { id: 'gate', name: 'Gate', url: 'https://status.example.com', time_zone: 'Etc/UTC', updated_at: started },
    incidents: [
      {
        id: 'open1',
        name: 'Elevated API errors',
        status: 'investigating',
        created_at: started,
        updated_at: started,
        monitoring_at: null,
        resolved_at: null,
        impact: 'major',
        shortlink: null,
        started_at: started,
        page_id: 'gate',
        incident_updates: [
          {
            id: 'u1',
            status: 'investigating',
            body: 'We are looking into errors.',
            incident_id: 'open1',
            created_at: started,
            updated_at: started,
            display_at: started,
            affected_components: null,
            deliver_notifications: true,
            custom_tweet: null,
            tweet_id: null,
          },
        ],
        components: [],
      },
    ],
  });
  const stack = JSON.stringify({ name: 'app', dependencies: { 'gate-sdk': '1' } });

  it('--fail-on active asks the status page first and fails on the open incident it reports', async () => {
    server.routes.set('/gate/api/v2/incidents.json', { body: openIncident });
    server.routes.set('/gate/api/v2/scheduled-maintenances.json', { body: EMPTY_MAINT });
    const catalog = writeTestCatalog([], {
      extra: [{ id: 'gate', platform: 'statuspage', url: `${server.url}/gate` }],
    });
    const run = await runCli(
      ['check', '-', '--fail-on', 'active', '--no-snapshot', '--index', indexDir, '--format', 'json'],
      { catalog, online: true, input: stack },
    );
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).findings).toMatchObject([
      { provider: 'gate', active: true, incident: { id: 'open1' } },
    ]);
    expect(server.total()).toBeGreaterThan(0);

    const skipped = tempDir();
    const noSync = await runCli(
      ['check', '-', '--fail-on', 'active', '--no-sync', '--no-snapshot', '--index', skipped, '--format', 'json'],
      { catalog, online: true, input: stack },
    );
    expect(noSync.code).toBe(0);
    expect(JSON.parse(noSync.stdout).findings).toEqual([]);
  });

  it('decides from the local index with a warning when the sync fails, and exits 2 under --strict', async () => {
    server.routes.set('/gate/api/v2/incidents.json', { status: 503, body: 'down' });
    const catalog = writeTestCatalog([], {
      extra: [{ id: 'gate', platform: 'statuspage', url: `${server.url}/gate` }],
    });
    const lenient = await runCli(['check', '-', '--fail-on', 'active', '--no-snapshot', '--index', indexDir], {
      catalog,
      online: true,
      input: stack,
    });
    expect(lenient.code).toBe(0);
    expect(lenient.stderr).toContain('using the local index');
    const strict = await runCli(
      ['check', '-', '--fail-on', 'active', '--strict', '--no-snapshot', '--index', indexDir],
      {
        catalog,
        online: true,
        input: stack,
      },
    );
    expect(strict.code).toBe(2);
    expect(strict.stderr).toContain('--strict: the live status of this stack could not be fetched');
  });
});
