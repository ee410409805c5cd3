// Terraform scan speed and memory on real public modules (issue 15): per module tree and in total, the first scan in a
// fresh process (a child: loading the scanner and whatever parser it needs, then the scan; median of BENCH_ROUNDS
// processes, default 3), the warm scan in this process (median of 5), and the peak RSS of `check` on the tree; each
// against its goal (≥ 2 MB/s first, ≥ 5 MB/s warm, ≤ 150 MB) and against a bare read of the same files measured in the
// same process. MB are the bytes of the .tf and .tfvars files. Then the proof that the shallow reader equals the full
// parse on every tree (terraform-equality.js).
//
// Corpus: every subdirectory of BENCH_TF_DIR (default /work/cache/tf when it exists: module repositories fetched there,
// outside the repository; COMMITS.txt lists them). Without it, the generated tree of terraform-generated.js, whose
// block mix is calibrated on those modules; with it, the generated tree is measured once too, and both trees'
// statistics are printed side by side, so the calibration can be checked.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { childEnv, median } from './harness.js';
import { corpusTrees, run as proveEqual, terraformFiles } from './terraform-equality.js';
import { generateTree } from './terraform-generated.js';
import { shapeOf, shapeRows } from './terraform-shape.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCAN_CHILD = join(ROOT, 'bench/child/terraform-scan.js');
const PEAK = join(ROOT, 'bench/child/peak-memory.js');
const DEFAULT_TF_DIR = '/work/cache/tf';
const FIRST_GOAL = 2;
const WARM_GOAL = 5;
const RSS_LIMIT_MB = 150;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ENV = childEnv({ NO_COLOR: '1', DOWNSTACK_OFFLINE: '1' });

const middle = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mbps = (bytes, ms) => bytes / 1e6 / (ms / 1000);

function runChild(args) {
  const result = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', env: ENV, maxBuffer: 64 << 20 });
  if (result.status !== 0)
    throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr.slice(0, 400)}`);
  return result;
}

/** Medians over `ROUNDS` fresh processes of the first scan, its CPU time and the bare read; the highest peak RSS. */
function firstScans(dir) {
  const runs = [];
  for (let round = 0; round < ROUNDS; round++) runs.push(JSON.parse(runChild([SCAN_CHILD, dir]).stdout));
  const pick = (key) => middle(runs.map((one) => one[key]));
  return {
    scanMs: pick('scanMs'),
    scanCpuMs: pick('scanCpuMs'),
    readMs: pick('readMs'),
    fullParses: pick('fullParses'),
    peakMb: Math.max(...runs.map((one) => one.peakMb)),
  };
}

/** Peak RSS of `check` on the tree, as a user runs it without network. */
function checkPeakMb(dir) {
  const result = runChild([PEAK, 'check', dir, '--format', 'json', '--no-sync', '--no-resolve']);
  const match = /peak-rss-kb (\d+)/.exec(result.stderr);
  if (!match) throw new Error(`no peak memory from check ${dir}`);
  return Number(match[1]) / 1024;
}

async function warmScans(dir, scanPaths) {
  const paths = terraformFiles(dir).filter((path) => /\.(tf|tfvars)$/.test(path));
  const bytes = paths.reduce((sum, path) => sum + readFileSync(path).length, 0);
  let dependencies = 0;
  const warmMs = await median(async () => {
    const result = await scanPaths([dir]);
    dependencies = result.inputs.reduce((sum, input) => sum + input.dependencies.length, 0);
  }, 5);
  const readMs = await median(() => {
    for (const path of terraformFiles(dir)) if (/\.(tf|tfvars)$/.test(path)) readFileSync(path, 'utf8');
  }, 5);
  return { files: paths.length, bytes, dependencies, warmMs, readMs };
}

function speedLine(name, bytes, ms, goal, note) {
  const rate = mbps(bytes, ms);
  const verdict = goal === undefined ? 'INFO' : rate >= goal ? 'PASS' : 'MISS';
  console.log(
    `${verdict}  ${name.padEnd(46)} ${rate.toFixed(2).padStart(6)} MB/s ${ms.toFixed(0).padStart(6)} ms${goal === undefined ? '' : ` (goal ≥ ${goal} MB/s)`}  ${note}`,
  );
}

function memoryLine(name, mb, limit = RSS_LIMIT_MB) {
  console.log(
    `${mb <= limit ? 'PASS' : 'MISS'}  ${name.padEnd(46)} ${mb.toFixed(0).padStart(6)} MB  (goal ≤ ${limit} MB)`,
  );
}

/** One tree's figures, printed; returns them for the total. */
async function measure(name, dir, scanPaths) {
  const warm = await warmScans(dir, scanPaths);
  const first = firstScans(dir);
  const checkMb = checkPeakMb(dir);
  console.log(
    `${name}: ${warm.files} files, ${(warm.bytes / 1e6).toFixed(2)} MB → ${warm.dependencies} dependencies; ${first.fullParses} blocks sent to hcl2-parser`,
  );
  speedLine(
    `${name}: first scan, fresh process`,
    warm.bytes,
    first.scanMs,
    FIRST_GOAL,
    `${(first.scanMs / first.readMs).toFixed(0)}× a bare read there (${first.readMs.toFixed(0)} ms); on CPU time ${mbps(warm.bytes, first.scanCpuMs).toFixed(2)} MB/s`,
  );
  speedLine(
    `${name}: warm scan, median of 5`,
    warm.bytes,
    warm.warmMs,
    WARM_GOAL,
    `${(warm.warmMs / warm.readMs).toFixed(0)}× a bare read (${warm.readMs.toFixed(0)} ms)`,
  );
  memoryLine(`${name}: peak RSS of check (scan alone ${first.peakMb.toFixed(0)} MB)`, checkMb);
  return { ...warm, ...first, checkMb };
}

function printShapes(names, shapes) {
  const rows = shapeRows(shapes);
  console.log(['statistic', ...names].map((cell, i) => (i === 0 ? cell.padEnd(44) : cell.padStart(24))).join(''));
  for (const row of rows) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(44) : cell.padStart(24))).join(''));
}

export async function run() {
  const corpus = process.env.BENCH_TF_DIR ?? (existsSync(DEFAULT_TF_DIR) ? DEFAULT_TF_DIR : undefined);
  const trees = corpus ? corpusTrees(corpus) : [];
  const { scanPaths } = await import(new URL('../dist/scan.js', import.meta.url).href);
  const generated = mkdtempSync(join(tmpdir(), 'downstack-bench-tf-'));
  try {
    const generatedPaths = await generateTree(generated);
    if (trees.length === 0) {
      console.log('\n# terraform: generated module repositories (no real corpus: set BENCH_TF_DIR)');
      trees.push(generated);
    } else console.log(`\n# terraform: real module repositories under ${corpus} (each subdirectory one tree)`);

    const results = [];
    for (const dir of trees)
      results.push(await measure(dir === generated ? 'generated' : basename(dir), dir, scanPaths));
    if (results.length > 1) {
      const sum = (key) => results.reduce((total, result) => total + result[key], 0);
      const bytes = sum('bytes');
      console.log(
        `all ${results.length} trees: ${sum('files')} files, ${(bytes / 1e6).toFixed(2)} MB; ${sum('fullParses')} blocks sent to hcl2-parser`,
      );
      speedLine(
        'all: first scan, fresh process',
        bytes,
        sum('scanMs'),
        FIRST_GOAL,
        `on CPU time ${mbps(bytes, sum('scanCpuMs')).toFixed(2)} MB/s`,
      );
      speedLine(
        'all: warm scan',
        bytes,
        sum('warmMs'),
        WARM_GOAL,
        `${(sum('warmMs') / sum('readMs')).toFixed(0)}× a bare read`,
      );
      memoryLine('all: highest peak RSS of check', Math.max(...results.map((result) => result.checkMb)));
    }

    if (corpus && trees[0] !== generated) {
      // The fallback measured once beside the real trees: its speed should be near theirs, its statistics too.
      console.log('\ncalibration of the generated fallback (terraform-generated.js) on the real trees:');
      const real = await shapeOf(trees.flatMap(terraformFiles));
      printShapes(['real corpus', 'generated'], [real, await shapeOf(generatedPaths)]);
      const fallback = await measure('generated', generated, scanPaths);
      const bytes = results.reduce((total, result) => total + result.bytes, 0);
      const realFirst = mbps(
        bytes,
        results.reduce((total, result) => total + result.scanMs, 0),
      );
      const realWarm = mbps(
        bytes,
        results.reduce((total, result) => total + result.warmMs, 0),
      );
      console.log(
        `INFO  MB/s real vs generated: first scan ${realFirst.toFixed(2)} vs ${mbps(fallback.bytes, fallback.scanMs).toFixed(2)}, warm ${realWarm.toFixed(2)} vs ${mbps(fallback.bytes, fallback.warmMs).toFixed(2)}`,
      );
    }

    console.log('\nshallow reader against the full parse (terraform-equality.js):');
    await proveEqual(trees);
  } finally {
    rmSync(generated, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run();
