// Hostile shapes (issue 13): each against a baseline of the same size and a harmless shape, measured in this run.
// - a package-lock.json whose 35,000 packages form one chain: parse+match against a bare JSON.parse of the text;
// - a Terraform "diamond" of 21 modules each calling the next twice (2^21 paths) against 21 modules called once.
// Run after `tsc`: `node bench/hostile.js`, or through bench/run.js.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCatalog } from '../dist/catalog/loader.js';
import { buildMatcher, exposuresFor } from '../dist/catalog/matcher.js';
import { parseNpmLock } from '../dist/parsers/npm-lock.js';
import { scanPaths } from '../dist/scan.js';

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function timed(runs, fn) {
  await fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return median(times);
}

function chainLock(n) {
  const packages = { '': { name: 'chain-app', version: '1.0.0', dependencies: { p0: '1.0.0' } } };
  for (let i = 0; i < n; i++)
    packages[`node_modules/p${i}`] = {
      version: '1.0.0',
      ...(i + 1 < n ? { dependencies: { [`p${i + 1}`]: '1.0.0' } } : {}),
    };
  return JSON.stringify({ name: 'chain-app', version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2);
}

/** Modules m1…m21, each calling the next `calls` times; every module holds one bucket. */
function moduleTree(dir, depth, calls) {
  mkdirSync(join(dir, 'modules'), { recursive: true });
  const call = (target) =>
    Array.from({ length: calls }, (_, i) => `module "c${i}" {\n  source = "${target}"\n}\n`).join('\n');
  writeFileSync(join(dir, 'main.tf'), `provider "aws" {\n  region = "us-east-1"\n}\n\n${call('./modules/m1')}`);
  for (let k = 1; k <= depth; k++) {
    mkdirSync(join(dir, 'modules', `m${k}`));
    const next = k < depth ? `\n${call(`../m${k + 1}`)}` : '';
    writeFileSync(join(dir, 'modules', `m${k}`, 'main.tf'), `resource "aws_s3_bucket" "b${k}" {}\n${next}`);
  }
}

export async function run() {
  console.log('\n# hostile shapes');
  const catalog = loadCatalog();
  const matcher = buildMatcher(catalog);
  const text = chainLock(35_000);
  const ours = await timed(5, () =>
    exposuresFor(parseNpmLock(text, 'package-lock.json').dependencies, matcher, catalog),
  );
  const bare = await timed(5, () => JSON.parse(text));
  console.log(
    `35,000-package chain (${(text.length / 1e6).toFixed(1)} MB): parse+match ${ours.toFixed(0)} ms, JSON.parse ${bare.toFixed(0)} ms, ratio vs baseline: ${(ours / bare).toFixed(1)}×`,
  );

  const root = mkdtempSync(join(tmpdir(), 'downstack-bench-hostile-'));
  try {
    moduleTree(join(root, 'diamond'), 21, 2);
    moduleTree(join(root, 'line'), 21, 1);
    const diamond = await timed(5, () => scanPaths([join(root, 'diamond')]));
    const line = await timed(5, () => scanPaths([join(root, 'line')]));
    console.log(
      `21-module diamond (2^21 paths): scan ${diamond.toFixed(0)} ms, 21 modules called once ${line.toFixed(0)} ms, ratio vs baseline: ${(diamond / line).toFixed(1)}×`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await run();
