// What start-up loads, seen through a module-load hook in a child process (never through timings): `--version` and
// `--help` load no command module, no parser and none of the heavy libraries; a command loads the parsers of the
// input kinds it met and nothing of the sync, the readers or the other report formats.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { moduleLoads, packagesLoaded } from './helpers/module-loads.js';

const BIN = resolve(import.meta.dirname, '..', 'bin', 'downstack.js');
const HEAVY = ['yaml', 'zod', 'psl', 'htmlparser2', 'fast-xml-parser', 'smol-toml', 'hcl2-parser', 'croner', 'chalk'];
const ours = (modules: string[]) =>
  modules.filter((url) => url.includes('/dist/')).map((url) => url.slice(url.indexOf('/dist/') + 1));

describe('start-up loads only what the command uses', () => {
  it('--version alone loads none of our modules and no package: not commander, not the CLI', () => {
    const { version } = JSON.parse(readFileSync(resolve(import.meta.dirname, '..', 'package.json'), 'utf8'));
    for (const flag of ['--version', '-V']) {
      const run = moduleLoads([BIN, flag]);
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toBe(`${version}\n`);
      expect(ours(run.modules)).toEqual([]);
      expect(packagesLoaded(run.modules).size, [...packagesLoaded(run.modules)].join(', ')).toBe(0);
    }
  });

  for (const flag of ['--version --no-color', '--help']) {
    it(`${flag} loads no command module, no parser, no catalog and none of the heavy libraries`, () => {
      const run = moduleLoads([BIN, ...flag.split(' ')]);
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout.length).toBeGreaterThan(0);
      const loaded = ours(run.modules);
      expect(loaded).toContain('dist/cli.js');
      // The option table's choices and defaults, and nothing else of the pipeline.
      expect(
        loaded.filter((path) => /^dist\/(parsers|catalog|incidents|readers|sync|report)\//.test(path)).sort(),
      ).toEqual(['dist/report/formats.js', 'dist/sync/http-options.js']);
      expect(loaded.filter((path) => /^dist\/commands\/(?!index\.js|context\.js)/.test(path))).toEqual([]);
      const packages = packagesLoaded(run.modules);
      for (const name of HEAVY) expect(packages.has(name), `${flag} loaded ${name}`).toBe(false);
    });
  }

  it('check on a package.json loads its parser and the table renderer, not the other kinds, the sync or readers', () => {
    const dir = mkdtempSync(join(tmpdir(), 'downstack-laziness-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', dependencies: { stripe: '^16.0.0' } }));
    const run = moduleLoads([BIN, 'check', dir, '--index', join(dir, 'index'), '--no-resolve'], {
      DOWNSTACK_OFFLINE: '1',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('Stripe');
    const loaded = ours(run.modules);
    expect(loaded).toContain('dist/parsers/package-json.js');
    expect(loaded).toContain('dist/report/table.js');
    // Which modules, not in which order: modules load concurrently, so the order of their loads is not fixed.
    expect(
      loaded.filter((path) => path.startsWith('dist/parsers/') && !path.startsWith('dist/parsers/lockfile')).sort(),
    ).toEqual(
      ['dist/parsers/index.js', 'dist/parsers/package-json.js', 'dist/parsers/types.js'].filter((path) =>
        loaded.includes(path),
      ),
    );
    expect(loaded.filter((path) => /^dist\/(readers|sync)\//.test(path))).toEqual(['dist/sync/http-options.js']);
    expect(loaded.filter((path) => /^dist\/report\/(json|markdown|sarif|github|gitlab|html)\.js$/.test(path))).toEqual(
      [],
    );
    const packages = packagesLoaded(run.modules);
    for (const name of ['yaml', 'zod', 'htmlparser2', 'fast-xml-parser', 'smol-toml', 'hcl2-parser', 'undici'])
      expect(packages.has(name), `check loaded ${name}`).toBe(false);
    // Without colour, without a .gitignore and without a broken JSON file, neither chalk, ignore nor jsonc-parser.
    for (const name of ['chalk', 'ignore', 'jsonc-parser'])
      expect(packages.has(name), `check loaded ${name}`).toBe(false);
  });

  it('check loads chalk when it paints, ignore for a .gitignore and jsonc-parser to locate a broken JSON file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'downstack-laziness-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', dependencies: { stripe: '^16.0.0' } }));
    writeFileSync(join(dir, '.gitignore'), 'build/\n');
    mkdirSync(join(dir, 'tool'));
    writeFileSync(join(dir, 'tool', 'package.json'), '{"name" "tool", "dependencies": {"stripe": "1"}}\n');
    // Colour as a CI log asks for it (NO_COLOR empty counts as unset).
    const run = moduleLoads([BIN, 'check', dir, '--index', join(dir, 'index'), '--no-resolve'], {
      DOWNSTACK_OFFLINE: '1',
      NO_COLOR: '',
      FORCE_COLOR: '1',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('\u001b[1m');
    expect(run.stderr).toMatch(/tool\/package\.json:1: invalid JSON at column \d+/);
    const packages = packagesLoaded(run.modules);
    for (const name of ['chalk', 'ignore', 'jsonc-parser'])
      expect(packages.has(name), `check left out ${name}`).toBe(true);
  });

  it('check on pnpm and yarn berry workspaces reads their lockfiles without the yaml library', () => {
    for (const fixture of ['pnpm-v9-workspaces', 'yarn-berry-workspaces']) {
      const dir = resolve(import.meta.dirname, 'fixtures', 'lockfiles', fixture);
      const index = mkdtempSync(join(tmpdir(), 'downstack-laziness-'));
      const run = moduleLoads([BIN, 'check', dir, '--index', index, '--no-resolve'], { DOWNSTACK_OFFLINE: '1' });
      expect(run.status, run.stderr).toBe(0);
      expect(ours(run.modules)).toContain('dist/parsers/lockfile/yaml-fast.js');
      expect(packagesLoaded(run.modules).has('yaml'), `${fixture} loaded yaml`).toBe(false);
    }
  });

  it("Terraform loads windows-iana only to map a Logic App's Windows time zone", () => {
    const dir = mkdtempSync(join(tmpdir(), 'downstack-laziness-'));
    const azure =
      'provider "azurerm" {\n  features {}\n}\n\nresource "azurerm_resource_group" "main" {\n  name     = "main"\n  location = "westeurope"\n}\n';
    writeFileSync(join(dir, 'main.tf'), azure);
    const plain = moduleLoads([BIN, 'check', dir, '--index', join(dir, 'index'), '--no-resolve'], {
      DOWNSTACK_OFFLINE: '1',
    });
    expect(plain.status, plain.stderr).toBe(0);
    expect(plain.stdout).toContain('Microsoft Azure');
    expect(packagesLoaded(plain.modules).has('windows-iana'), 'a tree without a Logic App loaded windows-iana').toBe(
      false,
    );
    const recurrence =
      'resource "azurerm_logic_app_trigger_recurrence" "digest" {\n  name         = "digest"\n  logic_app_id = "/subscriptions/x/resourceGroups/y/providers/Microsoft.Logic/workflows/z"\n  frequency    = "Week"\n  interval     = 1\n  time_zone    = "W. Europe Standard Time"\n\n  schedule {\n    at_these_hours   = [8]\n    at_these_minutes = [0]\n    on_these_days    = ["Monday"]\n  }\n}\n';
    writeFileSync(join(dir, 'schedules.tf'), recurrence);
    const jobs = moduleLoads([BIN, 'jobs', dir, '--format', 'json'], { DOWNSTACK_OFFLINE: '1' });
    expect(jobs.status, jobs.stderr).toBe(0);
    expect(JSON.parse(jobs.stdout).jobs.map((job: { timeZone: string }) => job.timeZone)).toEqual(['Europe/Berlin']);
    expect(packagesLoaded(jobs.modules).has('windows-iana')).toBe(true);
  });

  it('check on an npm v3 lockfile loads neither arborist, the DNS resolver, the cron engine, the YAML readers nor node:crypto', () => {
    const dir = resolve(import.meta.dirname, 'fixtures', 'lockfiles', 'npm-v3-workspaces');
    const index = mkdtempSync(join(tmpdir(), 'downstack-laziness-'));
    const run = moduleLoads([BIN, 'check', dir, '--index', index, '--no-resolve'], { DOWNSTACK_OFFLINE: '1' });
    expect(run.status, run.stderr).toBe(0);
    const loaded = ours(run.modules);
    expect(loaded).toContain('dist/parsers/npm-lock.js');
    for (const module of [
      'dist/parsers/lockfile/npm-lock-arborist.js',
      'dist/parsers/lockfile/yaml-fast.js',
      'dist/dns/discover.js',
    ])
      expect(loaded, module).not.toContain(module);
    const packages = packagesLoaded(run.modules);
    for (const name of ['@npmcli/arborist', 'croner', 'yaml'])
      expect(packages.has(name), `check loaded ${name}`).toBe(false);
    // Only a run that writes a file needs random names for its temp files (node:crypto is 3 ms to load).
    expect(run.modules).not.toContain('node:crypto');
  });

  it("check reads a workflow inside the fast reader's subset without the yaml library, and one outside it with it", () => {
    const dir = mkdtempSync(join(tmpdir(), 'downstack-laziness-'));
    mkdirSync(join(dir, '.github', 'workflows'), { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', dependencies: { stripe: '^16.0.0' } }));
    const workflow = (runsOn: string) =>
      `name: ci\non:\n  push:\n    branches: [main]\njobs:\n  test:\n    runs-on: ${runsOn}\n    steps:\n      - uses: actions/checkout@v4\n      - run: |\n          npm ci\n          npm test\n`;
    writeFileSync(join(dir, '.github', 'workflows', 'ci.yml'), workflow('ubuntu-latest'));
    const env = { DOWNSTACK_OFFLINE: '1' };
    const fast = moduleLoads(
      [BIN, 'check', dir, '--index', join(dir, 'index'), '--no-resolve', '--format', 'json'],
      env,
    );
    expect(fast.status, fast.stderr).toBe(0);
    expect(JSON.parse(fast.stdout).providers.map((provider: { id: string }) => provider.id)).toContain('github');
    expect(packagesLoaded(fast.modules).has('yaml'), 'an in-subset workflow loaded yaml').toBe(false);
    // An anchor is outside the subset: the library reads the file, with the same answer.
    writeFileSync(join(dir, '.github', 'workflows', 'ci.yml'), workflow('&runner ubuntu-latest'));
    const full = moduleLoads(
      [BIN, 'check', dir, '--index', join(dir, 'index'), '--no-resolve', '--format', 'json'],
      env,
    );
    expect(full.status, full.stderr).toBe(0);
    expect(packagesLoaded(full.modules).has('yaml')).toBe(true);
    // From the one-file copy the build made (found from the bundle as from the compiled modules), not the package.
    expect(full.modules.filter((url) => /\/(node_modules\/yaml|dist\/vendor)\//.test(url))).toEqual([
      pathToFileURL(resolve(import.meta.dirname, '..', 'dist', 'vendor', 'yaml.cjs')).href,
    ]);
    const providers = (stdout: string) => JSON.parse(stdout).providers;
    expect(providers(full.stdout)).toEqual(providers(fast.stdout));
  });

  it('check on a domain list answers its hosts from the built Public Suffix List table, without loading psl', () => {
    const dir = mkdtempSync(join(tmpdir(), 'downstack-laziness-'));
    writeFileSync(join(dir, 'domains.txt'), 'api.stripe.com\nacme-receipts.s3.us-east-1.amazonaws.com\n');
    const run = moduleLoads([BIN, 'check', dir, '--index', join(dir, 'index'), '--no-resolve'], {
      DOWNSTACK_OFFLINE: '1',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('Stripe');
    expect(run.stdout).toContain('Amazon Web Services');
    expect(ours(run.modules)).toContain('dist/public-suffixes.js');
    expect(packagesLoaded(run.modules).has('psl')).toBe(false);
  });
});

describe('the bundle the CLI runs (dist/bundle/, scripts/build-bundle.js)', () => {
  const DIST = resolve(import.meta.dirname, '..', 'dist');
  const held = JSON.parse(readFileSync(join(DIST, 'bundle', 'modules.json'), 'utf8')) as Record<string, string[]>;

  it('holds every compiled module the CLI can reach exactly once, and none of the packages', () => {
    const all = Object.values(held).flat();
    expect(new Set(all).size).toBe(all.length);
    for (const module of ['dist/cli.js', 'dist/check.js', 'dist/parsers/npm-lock.js', 'dist/sync/sync-worker.js'])
      expect(all).toContain(module);
    expect(all.filter((module) => !module.startsWith('dist/') || module.startsWith('dist/vendor/'))).toEqual([]);
    // The manifest names every file of the bundle, and nothing else.
    expect(Object.keys(held).sort()).toEqual(
      readdirSync(join(DIST, 'bundle'))
        .filter((file) => file.endsWith('.js'))
        .sort(),
    );
  });

  it('runs a check in a few files, not one per module: the CLI, the check, the parsers of what it read', () => {
    const dir = resolve(import.meta.dirname, 'fixtures', 'lockfiles', 'npm-v3-workspaces');
    const index = mkdtempSync(join(tmpdir(), 'downstack-laziness-'));
    const run = moduleLoads([BIN, 'check', dir, '--index', index, '--no-resolve'], { DOWNSTACK_OFFLINE: '1' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.bundleFiles).toContain('cli.js');
    expect(run.bundleFiles).toContain('check.js');
    // Through the bundle, and only through it: no compiled module of dist/ was loaded on its own.
    expect(run.modules.filter((url) => url.includes('/dist/'))).toEqual(
      run.bundleFiles.flatMap((file) =>
        (held[file] ?? []).map((module) => pathToFileURL(resolve(DIST, '..', module)).href),
      ),
    );
    const ourModules = ours(run.modules).length;
    expect(ourModules).toBeGreaterThan(40);
    expect(run.bundleFiles.length, run.bundleFiles.join(', ')).toBeLessThanOrEqual(8);
  });

  it('--help reads the CLI file alone', () => {
    const run = moduleLoads([BIN, '--help']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.bundleFiles).toEqual(['cli.js']);
  });
});
