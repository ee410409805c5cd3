// Broken lockfiles: each gives a `file:line` error or warning, never a crash or a polluted prototype,
// and the rest of the scan goes on.
import { mkdtemp, mkdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.js';
import { parseBunLock } from '../../src/parsers/bun-lock.js';
import { parseNpmLock } from '../../src/parsers/npm-lock.js';
import { parsePnpmLock } from '../../src/parsers/pnpm-lock.js';
import { parseYarnLock } from '../../src/parsers/yarn-lock.js';
import { scanPaths } from '../../src/scan.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/lockfiles/', import.meta.url));
const fixture = (path: string) => readFile(`${FIXTURES}${path}`, 'utf8');

function parseError(run: () => unknown): ParseError {
  try {
    run();
  } catch (error) {
    if (error instanceof ParseError) return error;
    throw error;
  }
  throw new Error('expected a ParseError');
}

/** Replaces the line holding `needle` with a git merge conflict around it. */
function withConflict(text: string, needle: string): { text: string; line: number } {
  const lines = text.split('\n');
  const index = lines.findIndex((line) => line.includes(needle));
  lines.splice(
    index,
    1,
    '<<<<<<< HEAD',
    lines[index] as string,
    '=======',
    (lines[index] as string).replace(/\d+\.\d+\.\d+/, '9.9.9'),
    '>>>>>>> feature',
  );
  return { text: lines.join('\n'), line: index + 1 };
}

describe('merge-conflict markers', () => {
  it.each([
    ['package-lock.json', 'npm-v3-workspaces/package-lock.json', '"version": "17.7.0"', parseNpmLock, /npm install/],
    ['yarn.lock (v1)', 'yarn-v1-workspaces/yarn.lock', 'version "17.7.0"', parseYarnLock, /yarn install/],
    ['yarn.lock (berry)', 'yarn-berry-workspaces/yarn.lock', 'version: 17.7.0', parseYarnLock, /yarn install/],
    ['pnpm-lock.yaml', 'pnpm-v9-workspaces/pnpm-lock.yaml', 'version: 17.7.0', parsePnpmLock, /pnpm install/],
    ['bun.lock', 'bun-workspaces/bun.lock', '"stripe@17.7.0"', parseBunLock, /bun install/],
  ] as const)('%s: the line of the first marker and how to resolve it', async (_name, path, needle, parse, fix) => {
    const { text, line } = withConflict(await fixture(path), needle);
    const error = parseError(() => parse(text, path));
    expect(error.line).toBe(line);
    expect(error.message).toMatch(/merge conflict marker "<<<<<<<"/);
    expect(error.message).toMatch(fix);
  });
});

describe('truncated files', () => {
  it.each([
    ['package-lock.json', 'npm-v3-workspaces/package-lock.json', parseNpmLock],
    ['bun.lock', 'bun-workspaces/bun.lock', parseBunLock],
  ] as const)('%s cut in half: "ends early" at the last line', async (_name, path, parse) => {
    const text = await fixture(path);
    const half = text.slice(0, Math.floor(text.length / 2));
    const error = parseError(() => parse(half, path));
    expect(error.file).toBe(path);
    expect(error.line).toBeGreaterThan(100);
    expect(error.message).toMatch(/ends early|invalid JSON/);
  });

  it('pnpm-lock.yaml cut inside a flow mapping: invalid YAML with a line', async () => {
    const text = await fixture('pnpm-v9-workspaces/pnpm-lock.yaml');
    const cut = text.slice(0, text.indexOf('{integrity: ') + 20);
    const error = parseError(() => parsePnpmLock(cut, 'pnpm-lock.yaml'));
    expect(error.message).toMatch(/invalid YAML/);
    expect(error.line).toBeGreaterThan(40);
  });
});

describe('unknown versions', () => {
  it('a yarn.lock that says v7 is read as v1 with a warning on its header line', async () => {
    const text = (await fixture('yarn-v1-workspaces/yarn.lock')).replace('# yarn lockfile v1', '# yarn lockfile v7');
    const { dependencies, errors } = parseYarnLock(text, 'yarn.lock');
    expect(errors).toContainEqual({
      file: 'yarn.lock',
      line: 2,
      message: expect.stringMatching(/yarn lockfile v7 is not one downstack knows/),
    });
    expect(dependencies.some((dependency) => dependency.name === 'stripe')).toBe(true);
  });

  it('a package-lock with lockfileVersion 4 is read as v3 with a warning', async () => {
    const text = (await fixture('npm-v3-workspaces/package-lock.json')).replace(
      '"lockfileVersion": 3',
      '"lockfileVersion": 4',
    );
    const { dependencies, errors } = parseNpmLock(text, 'package-lock.json');
    expect(errors).toEqual([
      { file: 'package-lock.json', line: 1, message: expect.stringMatching(/unknown lockfileVersion 4/) },
    ]);
    expect(dependencies.length).toBeGreaterThan(300);
  });
});

describe('duplicate keys', () => {
  it('package-lock.json: warned with the line of the second one', async () => {
    const text = (await fixture('npm-v3-workspaces/package-lock.json')).replace(
      '\n    "node_modules/stripe": {',
      '\n    "node_modules/stripe": {"version": "1.0.0"},\n    "node_modules/stripe": {',
    );
    const { errors } = parseNpmLock(text, 'package-lock.json');
    const line = text.split('\n').findLastIndex((l) => l.startsWith('    "node_modules/stripe": {')) + 1;
    expect(errors).toEqual([
      { file: 'package-lock.json', line, message: expect.stringMatching(/"node_modules\/stripe" is listed twice/) },
    ]);
  });

  it('yarn.lock v1: warned, the later entry used', async () => {
    const text = `# yarn lockfile v1\n\nstripe@^17:\n  version "17.0.0"\n\nstripe@^17:\n  version "17.7.0"\n`;
    const { errors } = parseYarnLock(text, 'yarn.lock');
    expect(errors).toContainEqual({
      file: 'yarn.lock',
      line: 6,
      message: expect.stringMatching(/"stripe@\^17" is listed twice/),
    });
  });

  it('pnpm-lock.yaml: an error on the duplicated key', () => {
    const text = `lockfileVersion: '9.0'\nimporters:\n  .:\n    dependencies: {}\n  .:\n    dependencies: {}\n`;
    const error = parseError(() => parsePnpmLock(text, 'pnpm-lock.yaml'));
    expect(error.line).toBe(5);
    expect(error.message).toMatch(/unique/i);
  });

  it('bun.lock: warned with its line', async () => {
    const text = (await fixture('bun-workspaces/bun.lock')).replace(
      '"workspaces": {',
      '"workspaces": {},\n  "workspaces": {',
    );
    const { errors, dependencies } = parseBunLock(text, 'bun.lock');
    expect(errors).toEqual([
      { file: 'bun.lock', line: 5, message: 'duplicate key "workspaces"; the later one is used' },
    ]);
    expect(dependencies.length).toBeGreaterThan(300);
  });
});

describe('__proto__ keys', () => {
  const polluted = () => ({}) as Record<string, unknown>;

  it.each([
    [
      'package-lock.json',
      '{"lockfileVersion":3,"__proto__":{"polluted":1},"packages":{"":{"name":"x","dependencies":{"__proto__":"1"}},"node_modules/__proto__":{"version":"1.0.0","polluted":true}}}',
      parseNpmLock,
    ],
    [
      'bun.lock',
      '{"lockfileVersion":1,"workspaces":{"":{"name":"x","dependencies":{"__proto__":"1"}}},"packages":{"__proto__":["__proto__@1.0.0","",{"dependencies":{"polluted":"1"}},""]}}',
      parseBunLock,
    ],
    [
      'pnpm-lock.yaml',
      "lockfileVersion: '9.0'\nimporters:\n  .:\n    dependencies:\n      __proto__: {specifier: '1', version: 1.0.0}\npackages:\n  __proto__@1.0.0: {resolution: {integrity: x}}\nsnapshots:\n  __proto__@1.0.0:\n    dependencies: {polluted: 1.0.0}\n",
      parsePnpmLock,
    ],
    [
      'yarn.lock',
      '# yarn lockfile v1\n\n__proto__@^1:\n  version "1.0.0"\n  dependencies:\n    polluted "^1"\n',
      parseYarnLock,
    ],
  ] as const)('%s: a package named __proto__ is just a package', (_name, text, parse) => {
    const { dependencies } = parse(text, 'lock');
    expect(dependencies.map((dependency) => dependency.name)).toContain('__proto__');
    expect(polluted().polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });
});

describe('scan goes on past bad lockfiles', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'downstack-bad-locks-'));
    for (const name of ['huge', 'broken', 'good']) await mkdir(join(dir, name));
    // A sparse 200 MB file: refused by its size before a byte is read.
    await writeFile(join(dir, 'huge', 'package-lock.json'), '');
    await truncate(join(dir, 'huge', 'package-lock.json'), 200 * 1024 * 1024);
    await writeFile(
      join(dir, 'broken', 'package-lock.json'),
      '{"lockfileVersion": 3, "packages": {\n  "": {"name": "broken"',
    );
    await writeFile(
      join(dir, 'broken', 'package.json'),
      JSON.stringify({ name: 'broken', dependencies: { stripe: '^17.0.0' } }),
    );
    await writeFile(join(dir, 'good', 'yarn.lock'), await fixture('yarn-v1-workspaces/yarn.lock'));
    await writeFile(
      join(dir, 'good', 'package.json'),
      JSON.stringify({ name: 'good', dependencies: { openai: '^4.77.0' } }),
    );
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reports the 200 MB file and the truncated one, keeps the package.json the broken lockfile could not replace', async () => {
    const { inputs, errors } = await scanPaths([dir]);
    expect(errors).toEqual([
      { file: join(dir, 'huge', 'package-lock.json'), message: expect.stringMatching(/too large to scan \(200 MB/) },
    ]);
    const broken = inputs.find((input) => input.file === join(dir, 'broken', 'package-lock.json'));
    expect(broken?.errors).toEqual([
      { file: join(dir, 'broken', 'package-lock.json'), line: 2, message: 'JSON ends early (truncated file?)' },
    ]);
    expect(
      inputs.find((input) => input.file === join(dir, 'broken', 'package.json'))?.dependencies.map((d) => d.name),
    ).toEqual(['stripe']);
    const good = inputs.filter((input) => input.file.startsWith(join(dir, 'good')));
    expect(good.map((input) => input.kind)).toEqual(['yarn-lock']);
    expect(good[0]?.dependencies.find((d) => d.name === 'openai')).toMatchObject({
      direct: true,
      via: ['good', 'openai'],
    });
  });
});

describe('input nested far deeper than any real file', () => {
  let dir: string;
  const depth = 20_000;
  const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'downstack-deep-'));
    for (const name of ['bun', 'pnpm', 'plan', 'good']) await mkdir(join(dir, name));
    await writeFile(
      join(dir, 'bun', 'bun.lock'),
      `{\n  "lockfileVersion": 1,\n  "workspaces": { "": { "name": "app" } },\n  "packages": {\n    "deep": ${deep}\n  }\n}\n`,
    );
    await writeFile(
      join(dir, 'pnpm', 'pnpm-lock.yaml'),
      `lockfileVersion: '9.0'\n\nimporters:\n\n  .:\n    dependencies: {}\n\npackages:\n\n  deep@1.0.0:\n    resolution: ${deep}\n`,
    );
    let modules = '';
    for (let i = 0; i < depth; i++) modules += `{"address":"module.m${i}","resources":[],"child_modules":[`;
    const resource =
      '{"address":"aws_s3_bucket.b","mode":"managed","type":"aws_s3_bucket","name":"b","values":{"region":"eu-west-1"}}';
    await writeFile(
      join(dir, 'plan', 'plan.json'),
      `{"format_version":"1.2","terraform_version":"1.9.0","planned_values":{"root_module":{"resources":[${resource}],"child_modules":[${modules}${']}'.repeat(depth)}]}}}`,
    );
    await writeFile(
      join(dir, 'good', 'package.json'),
      JSON.stringify({ name: 'good', dependencies: { stripe: '^17' } }),
    );
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('each is a file:line problem or read as far as is sensible, and the rest of the scan goes on', async () => {
    const { inputs } = await scanPaths([dir]);
    const problems = inputs.flatMap((input) => input.errors);
    expect(problems).toContainEqual({
      file: join(dir, 'bun', 'bun.lock'),
      line: 5,
      message: 'nested more than 256 levels deep (far deeper than any lockfile); not read',
    });
    expect(problems).toContainEqual({
      file: join(dir, 'pnpm', 'pnpm-lock.yaml'),
      line: 11,
      message: 'nested too deeply to read (far deeper than any lockfile)',
    });
    expect(problems).toContainEqual({
      file: join(dir, 'plan', 'plan.json'),
      message: 'the planned values nest modules more than 64 deep; the deeper ones are not read',
    });
    const plan = inputs.find((input) => input.file === join(dir, 'plan', 'plan.json'));
    expect(plan?.dependencies.map((d) => [d.name, d.region])).toContainEqual(['aws_s3_bucket', 'eu-west-1']);
    const good = inputs.find((input) => input.file === join(dir, 'good', 'package.json'));
    expect(good?.dependencies.map((d) => d.name)).toEqual(['stripe']);
  });
});
