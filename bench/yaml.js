// YAML config files (issue 15): the fast block reader (src/parsers/config/yaml-block.ts) against the yaml library on
// every .yml/.yaml under BENCH_YAML_DIR (default /work/cache when it exists: repositories fetched there, outside the
// repository; else the test fixtures), lockfiles left out. Prints how many files the fast reader takes, proves each
// taken file read the same by both (kinds, typed values, keys, order, lines), and times the first reading of the
// corpus's GitHub workflows in a fresh process by each reader (a run reads its files once, before the engine has
// optimized either reader), as a ratio of medians of alternating runs.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DEFAULT_DIR = '/work/cache';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const CHILD = join(ROOT, 'bench/child/yaml-read.js');

function yamlFiles(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter(
      (entry) =>
        entry.isFile() &&
        /\.ya?ml$/.test(entry.name) &&
        !/^(pnpm-lock|yarn)\b/.test(entry.name) &&
        !/(^|\/)(node_modules|\.git)(\/|$)/.test(entry.parentPath),
    )
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function run() {
  const dir = process.env.BENCH_YAML_DIR ?? (existsSync(DEFAULT_DIR) ? DEFAULT_DIR : join(ROOT, 'test/fixtures'));
  const { readBlockYaml } = await import('../dist/parsers/config/yaml-block.js');
  const { readYaml, readYamlWithLibrary, readingShape } = await import('../dist/parsers/config/yaml-nodes.js');
  const shape = (yaml) => JSON.stringify(readingShape(yaml));
  const files = yamlFiles(dir);
  let taken = 0;
  const different = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    if (!readBlockYaml(text)) continue;
    taken++;
    if (shape(readYaml(text, file)) !== shape(readYamlWithLibrary(text, file))) different.push(relative(dir, file));
  }
  console.log(`\n# YAML config files under ${dir}: the fast block reader against the yaml library`);
  console.log(
    `${different.length === 0 ? 'EQUAL' : 'DIFF '}  ${files.length} files, ${taken} taken by the fast reader (${((100 * taken) / Math.max(1, files.length)).toFixed(0)}%), ${taken - different.length} read the same by both`,
  );
  for (const file of different) console.log(`DIFF   ${file}`);

  const workflows = files.filter((file) => /\/\.github\/workflows\//.test(file));
  if (workflows.length === 0) return;
  const list = JSON.stringify(workflows);
  const times = { fast: [], library: [] };
  for (let round = 0; round < ROUNDS; round++)
    for (const reader of ['fast', 'library']) {
      const result = spawnSync(process.execPath, [CHILD, reader, list], { cwd: ROOT, encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`yaml-read ${reader}: ${result.stderr.slice(0, 400)}`);
      times[reader].push(Number(result.stdout));
    }
  const fast = median(times.fast);
  const library = median(times.library);
  console.log(
    `INFO   first reading of ${workflows.length} workflows in a fresh process: fast reader ${fast.toFixed(1)} ms, yaml library ${library.toFixed(1)} ms (loading included; ${(library / fast).toFixed(1)}×)`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await run();
