// Every JavaScript lockfile fixture (made by the real package managers) through the core scan and the
// catalog: the providers found, the `via` chains that explain them, and the dev flag of dev-only exposure.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildMatcher, exposuresFor } from '../../src/catalog/matcher.js';
import type { Dependency } from '../../src/model.js';
import { scanPaths } from '../../src/scan.js';
import { testCatalog } from '../helpers/catalog.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/lockfiles/', import.meta.url));
const PROVIDERS = ['aws', 'openai', 'sentry', 'slack', 'stripe'];
const catalog = testCatalog(PROVIDERS);

async function scan(dir: string) {
  const result = await scanPaths([`${FIXTURES}${dir}`]);
  const dependencies = result.inputs.flatMap((input) => input.dependencies);
  const { exposures } = exposuresFor(dependencies, buildMatcher(catalog), catalog);
  return { result, dependencies, exposures };
}

const chains = (dependencies: Dependency[], name: string) =>
  dependencies
    .filter((dependency) => dependency.name === name)
    .map((dependency) => `${dependency.workspace ?? '-'}: ${dependency.via.join(' > ')}`)
    .sort();

const WORKSPACE_CASES = [
  { dir: 'npm-v3-workspaces', kind: 'package-lock', root: 'acme-platform' },
  { dir: 'npm-v2-workspaces', kind: 'package-lock', root: 'acme-platform' },
  { dir: 'yarn-v1-workspaces', kind: 'yarn-lock', root: 'acme-platform' },
  { dir: 'yarn-berry-workspaces', kind: 'yarn-lock', root: 'acme-platform' },
  { dir: 'yarn-berry-v6-workspaces', kind: 'yarn-lock', root: 'acme-platform' },
  { dir: 'pnpm-v9-workspaces', kind: 'pnpm-lock', root: 'acme-platform' },
  { dir: 'pnpm-v6-workspaces', kind: 'pnpm-lock', root: 'acme-platform' },
  { dir: 'bun-workspaces', kind: 'bun-lock', root: 'acme-platform' },
];

describe.each(WORKSPACE_CASES)('$dir (workspaces: @acme/api → @acme/logger → @sentry/node)', ({ dir, kind, root }) => {
  it('reads only the lockfile: the workspace package.json files are superseded, not counted twice', async () => {
    const { result } = await scan(dir);
    expect(result.errors).toEqual([]);
    expect(result.inputs.map((input) => [input.kind, input.errors])).toEqual([[kind, []]]);
  });

  it('finds every provider through the catalog', async () => {
    const { exposures } = await scan(dir);
    expect(exposures.map((exposure) => exposure.provider).sort()).toEqual(PROVIDERS);
    expect(
      exposures
        .find((exposure) => exposure.provider === 'aws')
        ?.components.map(({ name, region }) => ({ name, region })),
    ).toEqual([{ name: 'Amazon Simple Storage Service', region: undefined }]);
  });

  it('explains @sentry/node per workspace: direct in @acme/logger, through it in @acme/api', async () => {
    const { dependencies } = await scan(dir);
    expect(chains(dependencies, '@sentry/node')).toEqual([
      '@acme/api: @acme/api > @acme/logger > @sentry/node',
      '@acme/logger: @acme/logger > @sentry/node',
    ]);
    const sentry = dependencies.filter((dependency) => dependency.name === '@sentry/node');
    expect(sentry.map((dependency) => [dependency.direct, dependency.kind, dependency.version])).toEqual(
      expect.arrayContaining([
        [true, 'prod', '8.55.2'],
        [false, 'prod', '8.55.2'],
      ]),
    );
    expect(chains(dependencies, 'stripe')).toEqual(['@acme/api: @acme/api > stripe']);
    expect(sentry.every((dependency) => typeof dependency.line === 'number' && dependency.line > 1)).toBe(true);
  });

  it('marks what only the root devDependencies pull in as dev, transitive ones included', async () => {
    const { dependencies, exposures } = await scan(dir);
    const plugin = dependencies.find((dependency) => dependency.name === '@sentry/vite-plugin');
    expect(plugin).toMatchObject({ workspace: root, direct: true, kind: 'dev', via: [root, '@sentry/vite-plugin'] });
    const cli = dependencies.find((dependency) => dependency.name === '@sentry/cli');
    expect(cli).toMatchObject({
      kind: 'dev',
      direct: false,
      via: [root, '@sentry/vite-plugin', '@sentry/bundler-plugin-core', '@sentry/cli'],
    });
    expect(exposures.find((exposure) => exposure.provider === 'sentry')?.devOnly).toBe(false);
    const withoutDev = dependencies.filter((dependency) => dependency.kind !== 'dev');
    expect(withoutDev.some((dependency) => dependency.name.startsWith('@sentry/cli'))).toBe(false);
    expect(withoutDev.some((dependency) => dependency.name === '@sentry/node')).toBe(true);
  });

  it('keeps the optional dependency of @acme/api optional', async () => {
    const { dependencies } = await scan(dir);
    expect(dependencies.find((dependency) => dependency.name === 'bufferutil')).toMatchObject({
      kind: 'optional',
      direct: true,
      workspace: '@acme/api',
    });
  });
});

describe.each([
  { dir: 'npm-v1-local-package', kind: 'package-lock' },
  { dir: 'npm-shrinkwrap-local-package', kind: 'npm-shrinkwrap' },
])('$dir (one project, @acme/logger as a file: dependency)', ({ dir, kind }) => {
  it('follows the local package to @sentry/node and supersedes both package.json files', async () => {
    const { result, dependencies, exposures } = await scan(dir);
    expect(result.inputs.map((input) => [input.kind, input.errors])).toEqual([[kind, []]]);
    expect(exposures.map((exposure) => exposure.provider).sort()).toEqual(PROVIDERS);
    expect(chains(dependencies, '@sentry/node')).toEqual(['-: acme-api > @acme/logger > @sentry/node']);
    expect(chains(dependencies, '@aws-sdk/client-s3')).toEqual(['-: acme-api > @aws-sdk/client-s3']);
    expect(dependencies.find((dependency) => dependency.name === '@sentry/cli')).toMatchObject({
      kind: 'dev',
      direct: false,
    });
  });
});

describe('npm-large (5,082 packages from npm 11)', () => {
  it('reads every package once and finds the SaaS SDKs it declares', async () => {
    const { result, dependencies, exposures } = await scan('npm-large');
    expect(result.inputs.map((input) => input.kind)).toEqual(['package-lock']);
    expect(dependencies).toHaveLength(5082);
    expect(exposures.map((exposure) => exposure.provider).sort()).toEqual(PROVIDERS);
    expect(chains(dependencies, 'stripe')).toEqual(['-: acme-monolith > stripe']);
    expect(dependencies.filter((dependency) => dependency.kind === 'dev').length).toBeGreaterThan(1000);
  });
});

describe('pnpm-large (3,924 packages from pnpm 9, the same package.json as npm-large)', () => {
  it('reads every snapshot reachable from the importer and finds the same SDKs', async () => {
    const { result, dependencies, exposures } = await scan('pnpm-large');
    expect(result.inputs.map((input) => [input.kind, input.errors])).toEqual([['pnpm-lock', []]]);
    expect(dependencies.length).toBeGreaterThan(3800);
    expect(exposures.map((exposure) => exposure.provider).sort()).toEqual(PROVIDERS);
    expect(chains(dependencies, 'stripe')).toEqual(['-: acme-monolith > stripe']);
    expect(dependencies.find((dependency) => dependency.name === 'typescript')).toMatchObject({
      kind: 'dev',
      direct: true,
    });
  });
});

describe('yarn-large (3,938 entries from yarn 1, the large package.json without serverless and aws-cdk-lib)', () => {
  it('starts the chains at the package.json next to it and finds the same SDKs', async () => {
    const { result, dependencies, exposures } = await scan('yarn-large');
    expect(result.inputs.map((input) => [input.kind, input.errors])).toEqual([['yarn-lock', []]]);
    expect(dependencies).toHaveLength(3938);
    expect(exposures.map((exposure) => exposure.provider).sort()).toEqual(PROVIDERS);
    expect(chains(dependencies, '@slack/web-api')).toEqual(['-: acme-monolith > @slack/web-api']);
    expect(dependencies.find((dependency) => dependency.name === 'jest')).toMatchObject({ kind: 'dev', direct: true });
  });
});

describe('bun.lockb', () => {
  it('says how to produce bun.lock instead of calling it just a binary file, and keeps the package.json', async () => {
    const { result, dependencies } = await scan('bun-lockb-binary');
    const lockb = result.inputs.find((input) => input.kind === 'bun-lockb');
    expect(lockb?.errors[0]?.message).toMatch(/bun install --save-text-lockfile/);
    expect(lockb?.errors[0]?.message).toMatch(/bun ≥ 1\.2/);
    expect(dependencies.some((dependency) => dependency.name === 'stripe' && dependency.direct)).toBe(true);
  });
});
