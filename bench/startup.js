// Start-up and whole-process goals (issue 15): `--version` and `--help` against bare node, `check` on the example stack
// against bare node, and `check` on real-sized lockfiles against the floor for that file (a node process that reads
// it and JSON.parses it, or the same data written as JSON for a YAML or yarn v1 lockfile; for those, the ratio to the
// format's usual parser is shown too, for information), each with the process's peak memory. Every ratio is of
// medians of alternating runs in this one process, so load on the machine hits both sides alike, and every child runs
// without NODE_EXTRA_CA_CERTS (harness.js childEnv), whose cost node 20 pays at each start and which would otherwise
// sit on both sides of each ratio; where it is set, the first line says what it costs.
//
// Lockfiles: every package-lock.json, pnpm-lock.yaml and yarn.lock under BENCH_LOCK_DIR (default /work/cache/lockfiles
// when it exists: real apps' lockfiles fetched there, outside the repository); otherwise the large lockfiles made by
// the real package managers in test/fixtures/lockfiles.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childEnv } from './harness.js';
import { parseWithItsFormat } from './lockfile-format.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin/downstack.js');
const FLOOR = join(ROOT, 'bench/child/lockfile-floor.js');
const FORMAT_FLOOR = join(ROOT, 'bench/child/lockfile-format-floor.js');
const PEAK = join(ROOT, 'bench/child/peak-memory.js');
const MODULE_LOAD = join(ROOT, 'bench/child/module-load.js');
const DEFAULT_LOCK_DIR = '/work/cache/lockfiles';
const LOCK_NAMES = new Set(['package-lock.json', 'pnpm-lock.yaml', 'yarn.lock']);
const RSS_LIMIT_MB = 150;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const ENV = childEnv({ NO_COLOR: '1', DOWNSTACK_OFFLINE: '1' });

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** One node child (a script and its arguments) in `env`; anything but exit 0 is a broken run, never a figure. */
function runNode(args, env = ENV) {
  const result = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, env });
  // check exits 1 only for --fail-on; a broken run must not be timed as a fast one.
  if (result.status !== 0)
    throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr.slice(0, 400)}`);
  return result;
}

function runOnce(args, env = ENV) {
  const start = performance.now();
  runNode(args, env);
  return performance.now() - start;
}

/** Medians of `rounds` alternating runs of each command (after one warm-up run of each), each in its `envs` entry. */
function alternate(commands, rounds = ROUNDS, envs = []) {
  const times = commands.map(() => []);
  for (const [i, args] of commands.entries()) runOnce(args, envs[i]);
  for (let round = 0; round < rounds; round++)
    for (const [i, args] of commands.entries()) times[i].push(runOnce(args, envs[i]));
  return times.map(median);
}

/** Peak resident memory in MB of one run, as the process itself reports it (process.resourceUsage().maxRSS). */
function peakMb(args) {
  const result = runNode([PEAK, ...args]);
  const match = /peak-rss-kb (\d+)/.exec(result.stderr);
  if (!match) throw new Error(`no peak memory from ${args.join(' ')}: ${result.stderr.slice(0, 400)}`);
  return Number(match[1]) / 1024;
}

/** Where a fresh process's start goes before any command runs: medians of `ROUNDS` children (bench/child/module-load.js). */
function moduleLoad() {
  const runs = [];
  for (let round = 0; round < ROUNDS; round++) {
    runs.push(JSON.parse(runNode([MODULE_LOAD]).stdout));
  }
  const pick = (key) => median(runs.map((run) => run[key])).toFixed(1);
  console.log(
    `INFO  module load in a fresh process: dist/bundle/cli.js ${pick('cliMs')} ms, commander ${pick('commanderMs')} ms, dist/bundle/check.js ${pick('checkMs')} ms (the child's first line ran at ${pick('startMs')} ms)`,
  );
}

/** One figure against its baseline; with a limit, PASS or MISS against it, without one only the ratio (INFO). */
function goal(name, ms, baselineName, baselineMs, limit) {
  const ratio = ms / baselineMs;
  const verdict = limit === undefined ? 'INFO' : ratio <= limit ? 'PASS' : 'MISS';
  console.log(
    `${verdict}  ${name.padEnd(52)} ${ms.toFixed(0).padStart(6)} ms  ${ratio.toFixed(2).padStart(5)}× ${baselineName} (${baselineMs.toFixed(0)} ms${limit === undefined ? '' : `; goal ≤ ${limit}×`})`,
  );
}

function memoryGoal(name, mb) {
  console.log(
    `${mb <= RSS_LIMIT_MB ? 'PASS' : 'MISS'}  ${`${name}: peak RSS`.padEnd(52)} ${mb.toFixed(0).padStart(6)} MB  (goal ≤ ${RSS_LIMIT_MB} MB)`,
  );
}

function lockfiles() {
  const dir = process.env.BENCH_LOCK_DIR ?? (existsSync(DEFAULT_LOCK_DIR) ? DEFAULT_LOCK_DIR : undefined);
  const found = [];
  const walk = (at, depth) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules' && depth < 2) walk(path, depth + 1);
      else if (entry.isFile() && LOCK_NAMES.has(entry.name)) found.push(path);
    }
  };
  if (dir) walk(dir, 0);
  if (found.length > 0) return { source: `real lockfiles under ${dir}`, files: found.sort() };
  const fixtures = join(ROOT, 'test/fixtures/lockfiles');
  return {
    source: 'generated fallback: the large lockfiles in test/fixtures/lockfiles (made by npm, pnpm and yarn)',
    files: ['npm-large/package-lock.json', 'pnpm-large/pnpm-lock.yaml', 'yarn-large/yarn.lock'].map((file) =>
      join(fixtures, file),
    ),
  };
}

/** Entries in a lockfile, counted the way each format lists its packages (for the label only). */
function packageCount(path, text) {
  if (path.endsWith('.json'))
    return Object.keys(JSON.parse(text).packages ?? JSON.parse(text).dependencies ?? {}).length;
  if (path.endsWith('.yaml')) return (text.match(/^ {2}'?\/?@?[^\s:][^:]*'?:\s*$/gm) ?? []).length;
  return (text.match(/^"?[^\s#][^\n]*:\s*$/gm) ?? []).length;
}

const twins = mkdtempSync(join(tmpdir(), 'downstack-bench-lock-'));

/** The lockfile itself when it is JSON; else its data written as JSON (read once with the bare parser of its format). */
function asJson(path, text) {
  if (path.endsWith('.json')) return path;
  const data = parseWithItsFormat(path, text);
  const twin = join(twins, `${basename(join(path, '..'))}-${basename(path)}.json`);
  writeFileSync(twin, JSON.stringify(data instanceof Map ? Object.fromEntries(data) : data));
  return twin;
}

export async function run() {
  const index = join(ROOT, 'bench/.no-index');
  console.log(`\n# start-up: whole processes, medians of ${ROUNDS} alternating runs against bare node`);
  const node = ['-e', '0'];
  if (process.env.NODE_EXTRA_CA_CERTS !== undefined) {
    // What it would add to every figure below, which are all measured without it.
    const [withMs, withoutMs] = alternate([node, node], ROUNDS, [process.env, ENV]);
    console.log(
      `INFO  NODE_EXTRA_CA_CERTS is set here: node -e 0 takes ${withMs.toFixed(0)} ms with it, ${withoutMs.toFixed(0)} ms without; every child below runs without it`,
    );
  }
  const [nodeMs, versionMs, helpMs] = alternate([node, [BIN, '--version'], [BIN, '--help']]);
  goal('downstack --version', versionMs, 'node -e 0', nodeMs, 1.5);
  goal('downstack --help', helpMs, 'node -e 0', nodeMs, 1.5);
  moduleLoad();
  const example = [BIN, 'check', 'examples/saas-app', '--no-resolve', '--index', index];
  const [nodeMs2, checkMs] = alternate([node, example]);
  goal('downstack check examples/saas-app', checkMs, 'node -e 0', nodeMs2, 3);
  memoryGoal('check examples/saas-app', peakMb(example.slice(1)));

  const { source, files } = lockfiles();
  console.log(`\n# check on lockfiles (${source}) against the floor: node reading + parsing the same file`);
  for (const path of files) {
    const text = readFileSync(path, 'utf8');
    const name = `${relative(ROOT, path).startsWith('..') ? relative(DEFAULT_LOCK_DIR, path) : relative(ROOT, path)}`;
    const label = `${name} (${packageCount(path, text)} packages, ${(statSync(path).size / 1e6).toFixed(1)} MB)`;
    const check = [BIN, 'check', path, '--no-resolve', '--index', index];
    const floor = [FLOOR, asJson(path, text)];
    if (path.endsWith('.json')) {
      const [floorMs, checkMs2] = alternate([floor, check]);
      goal(`check ${label}`, checkMs2, 'floor', floorMs, 2);
    } else {
      // Not JSON: the goal is against JSON.parse of the same data; its format's usual parser is shown beside it.
      const [floorMs, formatMs, checkMs2] = alternate([floor, [FORMAT_FLOOR, path], check]);
      goal(`check ${label}`, checkMs2, 'floor (its data as JSON)', floorMs, 2);
      goal(`check ${name}`, checkMs2, `its format's usual parser`, formatMs);
    }
    memoryGoal(`check ${name}`, peakMb(check.slice(1)));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await run();
