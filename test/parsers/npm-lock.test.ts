// The fast walk of package-lock v2/v3 is only allowed because it gives exactly what npm's own arborist
// gives: same dependencies, versions, kinds, chains and lines, on every npm lockfile fixture.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile, copyFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Dependency } from '../../src/model.js';
import { npmLockParser, parseNpmLock, parseNpmLockWithArborist } from '../../src/parsers/npm-lock.js';
import { scanPaths } from '../../src/scan.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/lockfiles/', import.meta.url));
const V2_V3 = [
  'npm-v3-workspaces/package-lock.json',
  'npm-v3-nested-versions/package-lock.json',
  'npm-v2-workspaces/package-lock.json',
  'npm-shrinkwrap-local-package/npm-shrinkwrap.json',
  'npm-large/package-lock.json',
];

const canonical = (dependencies: Dependency[]) =>
  dependencies
    .map((d) => JSON.stringify([d.workspace, d.name, d.version, d.kind, d.direct, d.via, d.line, d.file]))
    .sort();

describe.each(V2_V3)('%s: fast walk vs @npmcli/arborist', (fixture) => {
  it('yields the same dependencies, flags, chains and lines', async () => {
    const path = `${FIXTURES}${fixture}`;
    const text = await readFile(path, 'utf8');
    const fast = parseNpmLock(text, path);
    const reference = await parseNpmLockWithArborist(text, path);
    expect(fast.dependencies.length).toBeGreaterThan(200);
    expect(canonical(fast.dependencies)).toEqual(canonical(reference.dependencies));
    expect(fast.errors).toEqual(reference.errors);
  });
});

describe('npm-v3-nested-versions (two workspaces asking for different majors of stripe)', () => {
  it('resolves each workspace to its own copy: the nested one for @acme/logger, the hoisted one for @acme/api', async () => {
    const path = `${FIXTURES}npm-v3-nested-versions/package-lock.json`;
    const { dependencies } = parseNpmLock(await readFile(path, 'utf8'), path);
    const stripe = dependencies
      .filter((d) => d.name === 'stripe')
      .map((d) => `${d.workspace} ${d.version?.split('.')[0]} ${d.via.join(' > ')}`)
      .sort();
    expect(stripe).toEqual([
      '@acme/api 14 @acme/api > @acme/logger > stripe',
      '@acme/api 17 @acme/api > stripe',
      '@acme/logger 14 @acme/logger > stripe',
    ]);
  });
});

describe('package-lock v1 (npm 6) through arborist', () => {
  const path = `${FIXTURES}npm-v1-local-package/package-lock.json`;

  it('cannot be read by the synchronous fast path, and says why with a ParseError', async () => {
    const text = await readFile(path, 'utf8');
    expect(() => parseNpmLock(text, path)).toThrow(/v1 lockfile.*arborist/);
  });

  it('uses the package.json next to it for the direct dependencies', async () => {
    const text = await readFile(path, 'utf8');
    const manifest = await readFile(`${FIXTURES}npm-v1-local-package/package.json`, 'utf8');
    const { dependencies, errors } = await parseNpmLockWithArborist(text, path, manifest);
    expect(errors).toEqual([]);
    const direct = dependencies
      .filter((d) => d.direct)
      .map((d) => `${d.name}:${d.kind}`)
      .sort();
    expect(direct).toEqual([
      '@acme/logger:prod',
      '@aws-sdk/client-s3:prod',
      '@sentry/vite-plugin:dev',
      '@slack/web-api:prod',
      'openai:prod',
      'stripe:prod',
    ]);
    expect(dependencies.find((d) => d.name === 'stripe')?.line).toBe(
      text.split('\n').findIndex((line) => line.startsWith('    "stripe": {')) + 1,
    );
  });

  it('without package.json infers the direct dependencies and warns, with the same chains', async () => {
    const text = await readFile(path, 'utf8');
    const manifest = await readFile(`${FIXTURES}npm-v1-local-package/package.json`, 'utf8');
    const withManifest = await parseNpmLockWithArborist(text, path, manifest);
    const inferred = await parseNpmLockWithArborist(text, path);
    expect(inferred.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/no package.json next to this v1 lockfile/),
    ]);
    const chain = (deps: Dependency[]) => deps.find((d) => d.name === '@sentry/node')?.via;
    expect(chain(inferred.dependencies)).toEqual(chain(withManifest.dependencies));
    expect(inferred.dependencies).toHaveLength(withManifest.dependencies.length);
  });
});

describe('a v3 lockfile whose package.json is missing or disagrees', () => {
  const made: string[] = [];
  afterAll(async () => {
    for (const dir of made) await rm(dir, { recursive: true, force: true });
  });

  it('is read from the lockfile alone: the lockfile records what npm installs', async () => {
    const original = `${FIXTURES}npm-v3-workspaces/package-lock.json`;
    const alone = await mkdtemp(join(tmpdir(), 'downstack-v3-alone-'));
    const disagreeing = await mkdtemp(join(tmpdir(), 'downstack-v3-disagree-'));
    made.push(alone, disagreeing);
    await copyFile(original, join(alone, 'package-lock.json'));
    await copyFile(original, join(disagreeing, 'package-lock.json'));
    await writeFile(
      join(disagreeing, 'package.json'),
      JSON.stringify({ name: 'renamed', dependencies: { 'left-pad': '^1.3.0' } }),
    );

    const expected = (await scanPaths([original])).inputs[0]?.dependencies ?? [];
    for (const dir of [alone, disagreeing]) {
      const { inputs } = await scanPaths([dir]);
      expect(inputs.map((input) => input.kind)).toEqual(['package-lock']);
      const strip = (deps: Dependency[]) =>
        deps.map((d) => JSON.stringify([d.workspace, d.name, d.version, d.kind, d.via])).sort();
      expect(strip(inputs[0]?.dependencies ?? [])).toEqual(strip(expected));
    }
  });

  it('takes the fast path for v2/v3 without asking the core for package.json', async () => {
    const path = `${FIXTURES}npm-v2-workspaces/package-lock.json`;
    const text = await readFile(path, 'utf8');
    const asked: string[] = [];
    const result = await npmLockParser.parse(text, path, {
      read: async (file) => {
        asked.push(file);
        return { failed: 'missing', reason: 'no such file or directory' };
      },
      list: async (dir) => {
        asked.push(dir);
        return { failed: 'missing', reason: 'no such file or directory' };
      },
    });
    expect(asked).toEqual([]);
    expect(canonical(result.dependencies)).toEqual(canonical(parseNpmLock(text, path).dependencies));
  });
});

describe('arborist stays behind a lazy import', () => {
  it('is not loaded for v2/v3 lockfiles, only once a v1 lockfile needs it (checked in a fresh process on the build)', () => {
    const script = `
      const { createRequire } = await import('node:module');
      const scan = await import(${JSON.stringify(fileURLToPath(new URL('../../dist/scan.js', import.meta.url)))});
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((key) => key.includes('@npmcli/arborist'));
      await scan.scanPaths([${JSON.stringify(`${FIXTURES}npm-v3-workspaces`)}, ${JSON.stringify(`${FIXTURES}npm-large`)}]);
      const afterV3 = loaded();
      await scan.scanPaths([${JSON.stringify(`${FIXTURES}npm-v1-local-package`)}]);
      console.log(JSON.stringify({ afterV3, afterV1: loaded() }));`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(output)).toEqual({ afterV3: false, afterV1: true });
  });
});
