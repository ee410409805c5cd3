// One `.downstack.yml` means the same to every command: a provider it adds can be synced, listed, shown, explained
// and checked, and its `index:` is where sync writes and every reader reads.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeTestCatalog } from '../helpers/catalog.js';
import { runCli } from '../helpers/cli.js';
import { startStatusServer, type StatusServer } from '../helpers/status-server.js';

const incidents = readFileSync(
  join(import.meta.dirname, '..', 'fixtures', 'sync', 'statuspage', 'incidents-github.json'),
);
const EMPTY_MAINT = '{"page":{"id":"x","name":"x","url":"https://status.example.com"},"scheduled_maintenances":[]}';
const WINDOW = ['--since', '2024-09-01', '--until', '2024-10-01'];

let server: StatusServer;
let repo: string;
/** The built-in catalog's stand-in: the CLI gets it the documented way, through DOWNSTACK_PROVIDERS_DIR. */
const catalog = writeTestCatalog(['aws', 'stripe']);

beforeAll(async () => {
  server = await startStatusServer({
    '/ledger/api/v2/incidents.json': { body: incidents },
    '/ledger/api/v2/scheduled-maintenances.json': { body: EMPTY_MAINT },
  });
  repo = tempDir('downstack-repo-');
  mkdirSync(join(repo, '.git'));
  mkdirSync(join(repo, 'ops', 'providers'), { recursive: true });
  writeFileSync(
    join(repo, 'ops', 'providers', 'acme-ledger.yaml'),
    [
      'name: Acme Ledger',
      'category: payments',
      'status:',
      `  url: ${server.url}/ledger`,
      '  platform: statuspage',
      'match:',
      '  npm: ["@acme-ledger/*"]',
      'components:',
      '  - name: Actions',
      '  - name: Pages',
    ].join('\n'),
  );
  writeFileSync(join(repo, '.downstack.yml'), 'index: .downstack/index\nproviders:\n  - ops/providers\n');
  writeFileSync(
    join(repo, 'package.json'),
    JSON.stringify({ name: 'billing', dependencies: { '@acme-ledger/client': '^2.0.0', stripe: '^16.0.0' } }),
  );
});
afterAll(async () => {
  await server.close();
});

const inRepo = (input?: string) => ({ cwd: repo, catalog, ...(input === undefined ? {} : { input }) });

describe("a provider added in the repository's .downstack.yml", () => {
  it('is synced into the index the config names, from the working directory and from a path', async () => {
    const run = await runCli(['sync', '--allow-private-endpoints'], inRepo());
    expect(run.stderr).toMatch(/^acme-ledger: synced \(2 new; 2 in the index\)$/m);
    expect(run.code).toBe(0);
    expect(readdirSync(join(repo, '.downstack', 'index'))).toContain('acme-ledger.json');

    const fromElsewhere = await runCli(['sync', repo, '--allow-private-endpoints'], { catalog });
    expect(fromElsewhere.stderr).toMatch(/^acme-ledger: unchanged \(2 in the index\)$/m);
  });

  it('is listed by incidents, from the same index', async () => {
    const run = await runCli(['incidents', '--provider', 'acme-ledger', '--format', 'json', ...WINDOW], inRepo());
    expect(run.code).toBe(0);
    // The fixture's 2019 incident was never resolved, so it is still open in any window.
    expect(JSON.parse(run.stdout).map((incident: { id: string }) => incident.id)).toEqual([
      '69sb0f8lydp4',
      'd8x1kq2n5z7w',
    ]);
  });

  it('is found and shown by providers', async () => {
    const list = await runCli(['providers', 'ledger', '--format', 'json'], inRepo());
    expect(JSON.parse(list.stdout).map((provider: { id: string }) => provider.id)).toEqual(['acme-ledger']);
    const show = await runCli(['providers', 'show', 'acme-ledger'], inRepo());
    expect(show.code).toBe(0);
    expect(show.stdout).toContain(`status page  ${server.url}/ledger (statuspage)`);
  });

  it('is explained', async () => {
    const run = await runCli(['explain', 'acme-ledger', '.'], inRepo());
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Acme Ledger (acme-ledger): 1 chain');
    expect(run.stdout).toContain('billing → @acme-ledger/client@^2.0.0  [direct]');
  });

  it('is checked against the incidents synced for it', async () => {
    const run = await runCli(['check', '.', '--format', 'json', '--no-snapshot', ...WINDOW], inRepo());
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.providers.map((provider: { id: string }) => provider.id).sort()).toEqual(['acme-ledger', 'stripe']);
    expect(report.findings.map((finding: { incident: { id: string } }) => finding.incident.id).sort()).toEqual([
      '69sb0f8lydp4',
      'd8x1kq2n5z7w',
    ]);
  });
});
