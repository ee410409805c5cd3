// `check` run on a folder inside a monorepo (issue 11 item 5): the workspace root above it is found the way the
// package managers find it, its lockfile is read for that folder's workspaces only, and the report names that
// lockfile. The monorepos are the workspace fixtures npm, pnpm, yarn (classic and berry) and bun wrote: @acme/api
// declares AWS, Slack, OpenAI and Stripe SDKs and uses @acme/logger, which declares @sentry/node; the root has
// @sentry/vite-plugin as its own dev dependency.
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeTestCatalog } from '../helpers/catalog.js';
import { runCli } from '../helpers/cli.js';

const FIXTURES = resolve(import.meta.dirname, '..', 'fixtures', 'lockfiles');
const CATALOG = writeTestCatalog(['aws', 'slack', 'openai', 'stripe', 'sentry']);
const OFFLINE = ['--no-sync', '--no-resolve', '--no-snapshot', '--since', '2025-01-01', '--until', '2025-02-01'];

interface Json {
  inputs: Array<{
    file: string;
    kind: string;
    dependencies: number;
    workspaceRoot?: { declaredIn: string; workspaces: string[] };
  }>;
  providers: Array<{ id: string; reach: string; evidence: Array<{ name: string; file: string; via: string[] }> }>;
}

async function checkJson(cwd: string, path = '.'): Promise<{ report: Json; stderr: string }> {
  const run = await runCli(['check', path, '--format', 'json', '--index', tempDir(), ...OFFLINE], {
    cwd,
    catalog: CATALOG,
  });
  expect(run.stdout, run.stderr).not.toBe('');
  return { report: JSON.parse(run.stdout) as Json, stderr: run.stderr };
}

/** A copy of a fixture monorepo inside a git repository of its own, so nothing above it is ever looked at. */
function copyOf(fixture: string): string {
  const dir = join(tempDir('downstack-monorepo-'), 'repo');
  cpSync(join(FIXTURES, fixture), dir, { recursive: true });
  mkdirSync(join(dir, '.git'));
  return dir;
}

const ROOTS = [
  ['npm-v3-workspaces', 'package-lock.json', 'package.json'],
  ['pnpm-v9-workspaces', 'pnpm-lock.yaml', 'pnpm-workspace.yaml'],
  ['yarn-v1-workspaces', 'yarn.lock', 'package.json'],
  ['yarn-berry-workspaces', 'yarn.lock', 'package.json'],
  ['bun-workspaces', 'bun.lock', 'package.json'],
] as const;

describe('check on a folder inside a workspace', () => {
  it.each(ROOTS)(
    '%s: reads the root %s for that workspace and what it reaches',
    async (fixture, lockfile, declared) => {
      const { report } = await checkJson(join(FIXTURES, fixture, 'packages', 'api'));
      const root = report.inputs.find((input) => input.workspaceRoot);
      expect(root).toMatchObject({
        file: `../../${lockfile}`,
        workspaceRoot: { declaredIn: `../../${declared}`, workspaces: ['packages/api'] },
      });
      // The lockfile replaces the folder's package.json, as it does when the root is scanned.
      expect(report.inputs.map((input) => input.file)).not.toContain('package.json');
      const providers = Object.fromEntries(report.providers.map((provider) => [provider.id, provider.reach]));
      expect(providers).toEqual({
        aws: 'direct',
        openai: 'direct',
        sentry: 'direct',
        slack: 'direct',
        stripe: 'direct',
      });
      // Sentry comes through the workspace's own logger package, never through the root's dev tooling.
      const sentry = report.providers.find((provider) => provider.id === 'sentry');
      expect(sentry?.evidence.map((dependency) => dependency.name)).toContain('@sentry/node');
      expect(sentry?.evidence.map((dependency) => dependency.name)).not.toContain('@sentry/vite-plugin');
      expect(sentry?.evidence.find((dependency) => dependency.name === '@sentry/node')?.via).toEqual([
        '@acme/api',
        '@acme/logger',
        '@sentry/node',
      ]);
    },
  );

  it.each(ROOTS)('%s: a workspace that uses fewer packages reports only its own tree', async (fixture) => {
    const { report } = await checkJson(join(FIXTURES, fixture, 'packages', 'logger'));
    expect(report.providers.map((provider) => provider.id)).toEqual(['sentry']);
    const counted = report.inputs.find((input) => input.workspaceRoot);
    expect(counted?.workspaceRoot?.workspaces).toEqual(['packages/logger']);
    expect(counted?.dependencies).toBeGreaterThan(0);
  });

  it('a folder holding several workspaces reads them all from the root lockfile', async () => {
    const { report } = await checkJson(join(FIXTURES, 'pnpm-v9-workspaces'), 'packages');
    const root = report.inputs.find((input) => input.workspaceRoot);
    expect(root?.file).toBe('pnpm-lock.yaml');
    expect(root?.workspaceRoot?.workspaces).toEqual(['packages/api', 'packages/logger']);
    expect(report.providers.map((provider) => provider.id).sort()).toEqual([
      'aws',
      'openai',
      'sentry',
      'slack',
      'stripe',
    ]);
  });

  it('the table says which root lockfile was read and points evidence into it', async () => {
    const run = await runCli(['check', '.', '--index', tempDir(), ...OFFLINE], {
      cwd: join(FIXTURES, 'pnpm-v9-workspaces', 'packages', 'api'),
      catalog: CATALOG,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      'workspace packages/api of ../../pnpm-workspace.yaml: packages read from the root lockfile ../../pnpm-lock.yaml (above the scanned folder; read only)',
    );
    expect(run.stdout).toMatch(/← \.\.\/\.\.\/pnpm-lock\.yaml:\d+ @aws-sdk\/client-s3/);
  });

  it('pnpm goes by pnpm-workspace.yaml: a folder its globs leave out reads only its own manifest', async () => {
    const repo = copyOf('pnpm-v9-workspaces');
    writeFileSync(join(repo, 'pnpm-workspace.yaml'), 'packages:\n  - "apps/*"\n');
    const { report } = await checkJson(join(repo, 'packages', 'api'));
    expect(report.inputs.map((input) => [input.file, input.kind])).toEqual([['package.json', 'package.json']]);
  });

  it('a negated glob takes the folder out of the workspace', async () => {
    const repo = copyOf('npm-v3-workspaces');
    writeFileSync(
      join(repo, 'package.json'),
      JSON.stringify({ name: 'acme-platform', private: true, workspaces: ['packages/*', '!packages/api'] }),
    );
    const { report } = await checkJson(join(repo, 'packages', 'api'));
    expect(report.inputs.map((input) => input.file)).toEqual(['package.json']);
  });

  it('never looks above the git root: a repository nested in a monorepo folder is its own', async () => {
    const repo = copyOf('npm-v3-workspaces');
    mkdirSync(join(repo, 'packages', '.git'));
    const { report } = await checkJson(join(repo, 'packages', 'api'));
    expect(report.inputs.map((input) => input.file)).toEqual(['package.json']);
  });

  it('a workspace the lockfile does not list yet is read from its own manifest, and the lockfile is named', async () => {
    const repo = copyOf('npm-v3-workspaces');
    mkdirSync(join(repo, 'packages', 'billing'));
    writeFileSync(
      join(repo, 'packages', 'billing', 'package.json'),
      JSON.stringify({ name: '@acme/billing', dependencies: { stripe: '^17.5.0' } }),
    );
    const { report, stderr } = await checkJson(join(repo, 'packages', 'billing'));
    expect(stderr).toContain(
      '../../package-lock.json: lists no workspace in packages/billing though ../../package.json declares it',
    );
    expect(report.providers.map((provider) => provider.id)).toEqual(['stripe']);
    expect(report.providers[0]?.evidence[0]?.file).toBe('package.json');
  });

  it('a workspace root without a lockfile is said, and the folder is read alone', async () => {
    const repo = copyOf('npm-v3-workspaces');
    rmSync(join(repo, 'package-lock.json'));
    const { report, stderr } = await checkJson(join(repo, 'packages', 'api'));
    expect(stderr).toContain('../../package.json: this workspace root declares packages/api but has no lockfile');
    expect(report.inputs.map((input) => input.file)).toEqual(['package.json']);
  });

  it('a scan of the root itself reads the whole lockfile as before, with no workspace note', async () => {
    const { report } = await checkJson(join(FIXTURES, 'npm-v3-workspaces'));
    expect(report.inputs.some((input) => input.workspaceRoot)).toBe(false);
  });
});

// npm-own-vendor-app: npm's lockfile for a vendor's monorepo whose app workspace has an unscoped name (`web`) and
// uses the vendor's own SDK (@dub/analytics) beside its UI workspace @dub/ui, which declares nothing.
describe("a vendor's own monorepo, checked from an app folder inside it", () => {
  const catalog = writeTestCatalog(['stripe'], {
    extra: [{ id: 'dub', platform: 'statuspage', url: 'https://status.dub.co', npm: ['dub', '@dub/analytics'] }],
  });
  const own = async (cwd: string) => {
    const run = await runCli(['check', '.', '--format', 'json', '--index', tempDir(), ...OFFLINE], { cwd, catalog });
    expect(run.stdout, run.stderr).not.toBe('');
    const report = JSON.parse(run.stdout) as Json & { ownProviders: Array<{ id: string; workspace: string }> };
    return { providers: report.providers.map((provider) => provider.id), own: report.ownProviders };
  };

  it.each([
    ['the root', '.'],
    ['apps/web', 'apps/web'],
  ])('from %s: the vendor is left out through the scope of a workspace no chain passes', async (_name, folder) => {
    const result = await own(join(FIXTURES, 'npm-own-vendor-app', folder));
    expect(result.providers).toEqual(['stripe']);
    expect(result.own).toMatchObject([{ id: 'dub', scope: '@dub', workspace: '@dub/ui' }]);
  });

  it('explain from apps/web says why the vendor is not in the stack', async () => {
    const run = await runCli(['explain', 'dub', '.'], {
      cwd: join(FIXTURES, 'npm-own-vendor-app', 'apps', 'web'),
      catalog,
    });
    expect(run.stdout).toContain('left out of the stack: this is its own repository (@dub/ui shares its scope @dub)');
  });
});
