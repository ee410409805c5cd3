// A cloned repository's .downstack.yml must not reach outside it: its paths stay inside the repository, its
// providers' status pages stay public, and downstack never replaces a file it did not write. `--output` writes
// through devices and pipes instead of replacing them.
import { execFileSync, spawn } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeTestCatalog } from '../helpers/catalog.js';
import { runCli } from '../helpers/cli.js';
import { startStatusServer, type StatusServer } from '../helpers/status-server.js';

const incidents = readFileSync(
  join(import.meta.dirname, '..', 'fixtures', 'sync', 'statuspage', 'incidents-github.json'),
);
const EMPTY_MAINT = '{"page":{"id":"x","name":"x","url":"https://status.example.com"},"scheduled_maintenances":[]}';
const catalog = writeTestCatalog(['stripe']);

let server: StatusServer;
beforeAll(async () => {
  server = await startStatusServer({
    '/package/api/v2/incidents.json': { body: incidents },
    '/package/api/v2/scheduled-maintenances.json': { body: EMPTY_MAINT },
  });
});
afterAll(async () => {
  await server.close();
});

/** A cloned repository (a .git directory) whose config and provider files are `files`. */
function repository(files: Record<string, string>): string {
  const root = tempDir('downstack-victim-');
  const repo = join(root, 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(repo, path, '..'), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  return repo;
}

const provider = (id: string, url: string) =>
  `name: ${id}\ncategory: other\nstatus:\n  url: ${url}\n  platform: statuspage\nmatch:\n  npm: [${id}-sdk]\n`;

describe("a repository's .downstack.yml stays inside the repository", () => {
  it('refuses index: ../victim with the line that names it, and touches nothing there', async () => {
    const repo = repository({
      '.downstack.yml': '# team settings\nindex: ../victim\n',
      'package.json': '{"name":"x"}',
    });
    const victim = join(repo, '..', 'victim');
    mkdirSync(victim);
    writeFileSync(join(victim, 'package.json'), '{"name":"victim"}');
    for (const args of [['check', '.'], ['sync', '--all'], ['incidents']]) {
      const run = await runCli(args, { cwd: repo, catalog });
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(
        /^downstack: \.downstack\.yml:2: index: "\.\.\/victim" leads outside the repository \(.*\/repo\); a repository's config may only name places inside it/,
      );
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(readFileSync(join(victim, 'package.json'), 'utf8')).toBe('{"name":"victim"}');
  });

  it('refuses provider paths outside the repository, and a symbolic link that leads out of it', async () => {
    const repo = repository({ '.downstack.yml': 'providers:\n  - ../../etc\n  - ./linked\n' });
    execFileSync('ln', ['-s', '/etc', join(repo, 'linked')]);
    const run = await runCli(['providers'], { cwd: repo, catalog });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('.downstack.yml:2: providers.0: "../../etc" leads outside the repository');
    expect(run.stderr).toContain('.downstack.yml:3: providers.1: "./linked" leads outside the repository');
  });

  it('never replaces a file it did not write: a foreign package.json in the index is left alone', async () => {
    const repo = repository({
      '.downstack.yml': 'index: shared\nproviders:\n  - ops\n',
      'ops/package.yaml': provider('package', `${server.url}/package`),
      'shared/package.json': '{"name":"not-an-index-file","private":true}\n',
    });
    const run = await runCli(['sync', '--provider', 'package', '--allow-private-endpoints'], { cwd: repo, catalog });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^package: failed: .*shared\/package\.json is not a downstack index file; downstack leaves files it did not write alone/m,
    );
    expect(readFileSync(join(repo, 'shared', 'package.json'), 'utf8')).toBe(
      '{"name":"not-an-index-file","private":true}\n',
    );
  });

  it("refuses a repository provider's private status page unless --allow-private-endpoints is given", async () => {
    const repo = repository({
      '.downstack.yml': 'index: .downstack\nproviders:\n  - ops\n',
      'ops/package.yaml': provider('package', `${server.url}/package`),
    });
    const before = server.total();
    const refused = await runCli(['sync', '--provider', 'package'], { cwd: repo, catalog });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^package: failed: .*127\.0\.0\.1 is a private address: a status page defined in the repository must be public \(--allow-private-endpoints allows it\)/m,
    );
    expect(server.total()).toBe(before);
    const allowed = await runCli(['sync', '--provider', 'package', '--allow-private-endpoints'], {
      cwd: repo,
      catalog,
    });
    expect(allowed.code).toBe(0);
    // The built-in catalog (or its stand-in) is the user's own: its loopback pages need no permission.
    const own = writeTestCatalog([], {
      extra: [{ id: 'package', platform: 'statuspage', url: `${server.url}/package` }],
    });
    const builtIn = await runCli(['sync', '--provider', 'package', '--index', tempDir()], { catalog: own });
    expect(builtIn.code).toBe(0);
  });
});

describe('--output', () => {
  it('writes through a named pipe instead of replacing it with a regular file', async () => {
    const dir = tempDir('downstack-output-');
    const fifo = join(dir, 'report.fifo');
    execFileSync('mkfifo', [fifo]);
    const reader = spawn('cat', [fifo]);
    let read = '';
    reader.stdout.on('data', (chunk: Buffer) => (read += chunk.toString()));
    const closed = new Promise((done) => reader.on('close', done));
    const run = await runCli(['check', '-', '--format', 'json', '--output', fifo, '--index', tempDir()], {
      catalog,
      input: '{"name":"x","dependencies":{"stripe":"1"}}',
    });
    await closed;
    expect(run.code).toBe(0);
    expect(JSON.parse(read).providers.map((entry: { id: string }) => entry.id)).toEqual(['stripe']);
    expect(statSync(fifo).isFIFO()).toBe(true);
  });

  it('replaces a regular file atomically through a symbolic link, which stays a link', async () => {
    const dir = tempDir('downstack-output-');
    writeFileSync(join(dir, 'shared-report.json'), 'old');
    execFileSync('ln', ['-s', 'shared-report.json', join(dir, 'report.json')]);
    const run = await runCli(['check', '-', '--format', 'json', '--output', join(dir, 'report.json'), '--index', dir], {
      catalog,
      input: '{"name":"x","dependencies":{"stripe":"1"}}',
    });
    expect(run.code).toBe(0);
    expect(lstatSync(join(dir, 'report.json')).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'shared-report.json'), 'utf8')).schemaVersion).toBe(1);
  });

  // Where /dev/stdout is the usual link to the process's own stdout (a pipe here); a machine where something already
  // replaced it with a regular file has nothing left to protect.
  it.skipIf(!lstatSync('/dev/stdout').isSymbolicLink())('writes through /dev/stdout', async () => {
    const run = await runCli(['check', '-', '--format', 'json', '--output', '/dev/stdout', '--index', tempDir()], {
      catalog,
      input: '{"name":"x","dependencies":{"stripe":"1"}}',
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).schemaVersion).toBe(1);
    expect(lstatSync('/dev/stdout').isSymbolicLink()).toBe(true);
  });
});
