// One index for a fleet, through the built binary: a scheduled job syncs and publishes (`sync --publish`), CI jobs
// read it (`check --index-url`, DOWNSTACK_INDEX_URL) and say which index answered, including when it cannot be read.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir, writeTestCatalog } from '../helpers/catalog.js';
import { runCli } from '../helpers/cli.js';
import { type StatusServer, startStatusServer } from '../helpers/status-server.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'sync');
const EMPTY_MAINT = '{"page":{"id":"x","name":"x","url":"https://status.example.com"},"scheduled_maintenances":[]}';

let statusPages: StatusServer;
let host: StatusServer;

beforeEach(async () => {
  statusPages = await startStatusServer({
    '/gh/api/v2/incidents.json': { body: readFileSync(join(FIXTURES, 'statuspage/incidents-github.json')) },
    '/gh/api/v2/scheduled-maintenances.json': { body: EMPTY_MAINT },
  });
  host = await startStatusServer();
});
afterEach(async () => {
  await statusPages.close();
  await host.close();
});

/** The built binary, allowed onto the network (loopback servers only) to reach the status pages and the host. */
const cli = (args: string[], catalog: string, env: Record<string, string> = {}, input = '') =>
  runCli(args, { catalog, online: true, env, input });

const ghCatalog = () =>
  writeTestCatalog([], { extra: [{ id: 'gh', platform: 'statuspage', url: `${statusPages.url}/gh` }] });

/** Serves every file of a published directory under /fleet/, like a static host. */
function serve(dir: string): void {
  host.routes.set('/fleet/manifest.json', { body: readFileSync(join(dir, 'manifest.json')) });
  for (const name of readdirSync(join(dir, 'providers')))
    host.routes.set(`/fleet/providers/${name}`, { body: readFileSync(join(dir, 'providers', name)) });
}

const STACK = JSON.stringify({ name: 'app', dependencies: { 'gh-sdk': '^1.0.0' } });
const AUDIT = ['--since', '2024-09-16', '--until', '2024-09-18', '--format', 'json', '--no-snapshot', '--lead', '0'];

describe('one index for a fleet', () => {
  it('publishes after syncing, and a CI job reads the published index instead of the status pages', async () => {
    const catalog = ghCatalog();
    const publisher = tempDir();
    const out = tempDir('downstack-public-');
    const sync = await cli(['sync', '--all', '--index', publisher, '--publish', out], catalog);
    expect(sync.code).toBe(0);
    expect(sync.stderr).toMatch(/^publish: 1 providers, 2 incidents \(\d+ KB\) → .*manifest\.json$/m);
    serve(out);
    const asked = statusPages.total();

    const runner = tempDir();
    const check = await cli(
      ['check', '-', '--index', runner, '--fail-on', 'active', ...AUDIT],
      catalog,
      { DOWNSTACK_INDEX_URL: `${host.url}/fleet/` },
      STACK,
    );
    // The fixture's second incident is still open: the gate decides on the published data and fails.
    expect(check.code).toBe(1);
    expect(check.stderr).toMatch(
      /^incidents: published index http:\/\/127\.0\.0\.1:\d+\/fleet\/manifest\.json \(published [^;]*; 1 provider files downloaded, 0 unchanged\)$/m,
    );
    const report = JSON.parse(check.stdout);
    expect(report.findings.map((finding: { incident: { id: string } }) => finding.incident.id)).toContain(
      '69sb0f8lydp4',
    );
    expect(report.index.published).toMatchObject({ state: 'fresh', fetched: ['gh'], refused: [] });
    // --fail-on active did not send this job to the status pages: the publisher already asked them.
    expect(statusPages.total()).toBe(asked);
  });

  it('falls back to the local index when the published one cannot be read, says so, and --strict exits 2', async () => {
    const catalog = ghCatalog();
    const runner = tempDir();
    await cli(['sync', '--all', '--index', runner], catalog);
    const url = `${host.url}/nowhere/`;
    const check = await cli(['check', '-', '--index', runner, '--index-url', url, ...AUDIT], catalog, {}, STACK);
    expect(check.code).toBe(0);
    expect(check.stderr).toMatch(
      /^warning: published index .*\/nowhere\/manifest\.json could not be read \(HTTP 404.*\) and no copy is cached; using the local index at /m,
    );
    expect(JSON.parse(check.stdout).index.published).toMatchObject({ state: 'local' });
    expect(JSON.parse(check.stdout).findings).toHaveLength(2);

    const strict = await cli(
      ['check', '-', '--index', runner, '--index-url', url, '--strict', ...AUDIT],
      catalog,
      {},
      STACK,
    );
    expect(strict.code).toBe(2);
    expect(strict.stdout).toBe('');
  });

  it('refuses an --index-url that is not http(s)', async () => {
    const catalog = ghCatalog();
    const run = await cli(['check', '-', '--index-url', 'file:///etc/passwd', ...AUDIT], catalog, {}, STACK);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--index-url "file:\/\/\/etc\/passwd" is not an http\(s\) URL/);
  });
});
