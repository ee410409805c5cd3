// Lockfile speed (issue 3): on the large npm, pnpm and yarn fixtures, downstack's parse+match against a
// bare parse of the same file (in process) and against the package manager's own listing (fresh processes).
// Run after `tsc`: `node bench/lockfiles.js`, or through bench/run.js. Ratios are what count; every
// baseline is measured in the same run.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { loadCatalog } from '../dist/catalog/loader.js';
import { createFileAccess } from '../dist/file-access.js';
import { buildMatcher, exposuresFor } from '../dist/catalog/matcher.js';
import { npmLockParser } from '../dist/parsers/npm-lock.js';
import { pnpmLockParser } from '../dist/parsers/pnpm-lock.js';
import { yarnLockParser } from '../dist/parsers/yarn-lock.js';

const require = createRequire(import.meta.url);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FIXTURES = join(ROOT, 'test/fixtures/lockfiles');
const CHILD = join(ROOT, 'bench/child/lockfile-child.js');

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Runs the two in alternating blocks, so load on the machine hits both alike, while each block's own garbage
 * is mostly collected within the block (one-to-one turns would bill each side for the other's allocations).
 */
async function timePaired(rounds, ours, baseline) {
  const block = async (fn, out) => {
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      await fn();
      out.push(performance.now() - start);
    }
  };
  await block(ours, []);
  await block(baseline, []);
  const a = [];
  const b = [];
  for (let round = 0; round < rounds; round++) {
    await block(baseline, b);
    await block(ours, a);
  }
  return { ours: median(a), baseline: median(b), ratio: median(a) / median(b) };
}

function timeProcess(runs, command, args, cwd) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const result = spawnSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 512 * 1024 * 1024 });
    times.push(performance.now() - start);
    if (result.status !== 0 && result.stdout.length === 0)
      throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr.toString().slice(0, 300)}`);
  }
  return median(times);
}

/** The package manager's CLI from npx's cache (installed there once), so npx's own start-up is not timed. */
function cachedBin(pkg, version, bin) {
  const find = () => {
    const cache = join(homedir(), '.npm/_npx');
    if (!existsSync(cache)) return undefined;
    for (const dir of readdirSync(cache)) {
      const manifest = join(cache, dir, 'node_modules', pkg, 'package.json');
      if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).version.startsWith(`${version}.`))
        return join(dirname(manifest), bin);
    }
    return undefined;
  };
  const found = find();
  if (found) return found;
  execFileSync('npx', ['-y', `${pkg}@${version}`, '--version'], { stdio: 'ignore' });
  return find();
}

const CASES = [
  {
    name: 'npm-large package-lock.json',
    dir: 'npm-large',
    file: 'package-lock.json',
    parser: npmLockParser,
    bareName: 'JSON.parse',
    bare: (text) => JSON.parse(text),
    tool: () => ({
      name: 'npm ls --all --json --package-lock-only',
      command: 'npm',
      args: ['ls', '--all', '--json', '--package-lock-only'],
    }),
  },
  {
    name: 'pnpm-large pnpm-lock.yaml',
    dir: 'pnpm-large',
    file: 'pnpm-lock.yaml',
    parser: pnpmLockParser,
    bareName: 'yaml library parse',
    bare: (text) => parseYaml(text),
    tool: () => ({
      name: 'pnpm@10 list --depth Infinity --json --lockfile-only',
      command: process.execPath,
      args: [cachedBin('pnpm', '10', 'bin/pnpm.cjs'), 'list', '--depth', 'Infinity', '--json', '--lockfile-only'],
    }),
  },
  {
    name: 'yarn-large yarn.lock (v1)',
    dir: 'yarn-large',
    file: 'yarn.lock',
    parser: yarnLockParser,
    bareName: "npm's own yarn.lock parser (arborist YarnLock.parse)",
    bare: (text) => new (require('@npmcli/arborist/lib/yarn-lock.js'))().parse(text),
    tool: () => ({
      name: 'yarn@1 list --json',
      command: process.execPath,
      args: [cachedBin('yarn', '1', 'bin/yarn.js'), 'list', '--json', '--frozen-lockfile', '--offline'],
    }),
  },
];

export async function run() {
  const catalog = loadCatalog(
    ['aws', 'openai', 'sentry', 'slack', 'stripe'].map((id) => join(ROOT, 'test/fixtures/providers', `${id}.yaml`)),
  );
  const matcher = buildMatcher(catalog);
  for (const item of CASES) {
    const dir = join(FIXTURES, item.dir);
    const path = join(dir, item.file);
    const text = readFileSync(path, 'utf8');
    let count = 0;
    const timing = await timePaired(
      6,
      async () => {
        const result = await item.parser.parse(text, path, createFileAccess([dir]));
        count = result.dependencies.length;
        exposuresFor(result.dependencies, matcher, catalog);
      },
      () => item.bare(text),
    );
    console.log(
      `${item.name} (${count} dependencies, ${(text.length / 1e6).toFixed(1)} MB): parse+match ${timing.ours.toFixed(1)} ms, ${item.bareName} ${timing.baseline.toFixed(1)} ms, ratio vs baseline: ${timing.ratio.toFixed(2)}× (goal ≤ 3×)`,
    );

    const tool = item.tool();
    const ourProcess = timeProcess(3, process.execPath, [CHILD, path], dir);
    const toolProcess = timeProcess(3, tool.command, tool.args, dir);
    console.log(
      `${item.name}: downstack process ${ourProcess.toFixed(0)} ms, ${tool.name} ${toolProcess.toFixed(0)} ms, ratio vs baseline: ${(toolProcess / ourProcess).toFixed(2)}× faster (goal ≥ 2×)`,
    );
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await run();
