// The core's side of lockfiles: a directory scan finds every project, a lockfile replaces the package.json
// files of the projects it accounts for (no double counting), and stdin is recognised by its content.
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parserForText } from '../src/parsers/index.js';
import { scanPaths } from '../src/scan.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/lockfiles/', import.meta.url));

describe('a directory holding many projects', () => {
  it('reads each lockfile once and only the package.json files no lockfile accounts for', async () => {
    const { inputs, errors } = await scanPaths([FIXTURES]);
    expect(errors).toEqual([]);
    const read = inputs.map((input) => `${relative(FIXTURES, input.file)} ${input.kind}`).sort();
    expect(read).toEqual([
      'bun-lockb-binary/bun.lockb bun-lockb',
      'bun-lockb-binary/package.json package.json',
      'bun-lockb-binary/packages/logger/package.json package.json',
      'bun-workspaces/bun.lock bun-lock',
      'npm-aws-helpers/package-lock.json package-lock',
      'npm-large/package-lock.json package-lock',
      'npm-own-vendor-app/package-lock.json package-lock',
      'npm-own-vendor/package-lock.json package-lock',
      'npm-reach/package-lock.json package-lock',
      'npm-shrinkwrap-local-package/npm-shrinkwrap.json npm-shrinkwrap',
      'npm-v1-local-package/package-lock.json package-lock',
      'npm-v2-workspaces/package-lock.json package-lock',
      'npm-v3-nested-versions/package-lock.json package-lock',
      'npm-v3-workspaces/package-lock.json package-lock',
      'pnpm-large/pnpm-lock.yaml pnpm-lock',
      'pnpm-reach/pnpm-lock.yaml pnpm-lock',
      'pnpm-v6-workspaces/pnpm-lock.yaml pnpm-lock',
      'pnpm-v9-workspaces/pnpm-lock.yaml pnpm-lock',
      'yarn-berry-v6-workspaces/yarn.lock yarn-lock',
      'yarn-berry-workspaces/yarn.lock yarn-lock',
      'yarn-large/yarn.lock yarn-lock',
      'yarn-v1-workspaces/yarn.lock yarn-lock',
    ]);
  });

  it('gives each workspace its own chains without repeating the same package for the same workspace', async () => {
    const { inputs } = await scanPaths([`${FIXTURES}pnpm-v9-workspaces`]);
    const dependencies = inputs.flatMap((input) => input.dependencies);
    const keys = dependencies.map((d) => `${d.workspace}\u0000${d.name}\u0000${d.version}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(dependencies.map((d) => d.workspace))).toEqual(
      new Set(['acme-platform', '@acme/api', '@acme/logger']),
    );
  });
});

describe('stdin: the format is recognised from the text', () => {
  it.each([
    ['npm-v3-workspaces/package-lock.json', 'package-lock'],
    ['npm-v1-local-package/package-lock.json', 'package-lock'],
    ['yarn-v1-workspaces/yarn.lock', 'yarn-lock'],
    ['yarn-berry-workspaces/yarn.lock', 'yarn-lock'],
    ['yarn-berry-v6-workspaces/yarn.lock', 'yarn-lock'],
    ['pnpm-v6-workspaces/pnpm-lock.yaml', 'pnpm-lock'],
    ['pnpm-v9-workspaces/pnpm-lock.yaml', 'pnpm-lock'],
    ['bun-workspaces/bun.lock', 'bun-lock'],
    ['npm-v3-workspaces/package.json', 'package.json'],
  ])('%s → %s', async (path, kind) => {
    expect((await parserForText(await readFile(`${FIXTURES}${path}`, 'utf8')))?.kind).toBe(kind);
  });

  it('a pasted pnpm lockfile is read without its manifests, naming workspaces by folder', async () => {
    const text = await readFile(`${FIXTURES}pnpm-v9-workspaces/pnpm-lock.yaml`, 'utf8');
    const { inputs } = await scanPaths(['-'], { readStdin: async () => text });
    const sentry = inputs[0]?.dependencies.filter((d) => d.name === '@sentry/node').map((d) => d.via.join(' > '));
    expect(sentry?.sort()).toEqual(['@acme/logger > @sentry/node', 'packages/api > @acme/logger > @sentry/node']);
  });
});
