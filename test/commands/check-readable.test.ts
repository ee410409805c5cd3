// The table stays readable on big real stacks (issue 11 item 6): names never run into their components, component
// lists are cut between entries, every region is listed once in one spelling, evidence paths are relative to the
// scanned folder and grouped per workspace and file, and the header counts each package once.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeTestCatalog } from '../helpers/catalog.js';
import { runCli } from '../helpers/cli.js';

const OFFLINE = ['--no-resolve', '--no-snapshot', '--since', '2025-01-01', '--until', '2025-02-01'];
const WORKSPACES = resolve(import.meta.dirname, '..', 'fixtures', 'lockfiles', 'pnpm-v9-workspaces');

/** A catalog of one provider whose name is longer than the name column, with twelve components. */
function longNamedCatalog(): string {
  const dir = writeTestCatalog(['google-cloud', 'aws']);
  const components = Array.from({ length: 12 }, (_, index) => ({
    name: `Northwind Regional Component ${index + 1}`,
    match: { npm: [`@northwind/component-${index + 1}`] },
  }));
  const provider = {
    name: 'Northwind Enterprise Messaging Cloud',
    category: 'other',
    status: { url: 'https://status.northwind.example', platform: 'statuspage' },
    match: { npm: ['@northwind/*'] },
    components,
  };
  writeFileSync(join(dir, 'northwind.yaml'), JSON.stringify(provider));
  return dir;
}

function stackDir(): string {
  const dir = tempDir('downstack-readable-');
  const dependencies = Object.fromEntries(
    Array.from({ length: 12 }, (_, index) => [`@northwind/component-${index + 1}`, '1.0.0']),
  );
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'shop', dependencies }, null, 2));
  mkdirSync(join(dir, 'infra'));
  // One region written in upper case (as GCS bucket locations often are) and the same in lower case.
  writeFileSync(
    join(dir, 'infra', 'main.tf'),
    [
      'resource "google_storage_bucket" "assets" {',
      '  name     = "shop-assets"',
      '  location = "EUROPE-WEST2"',
      '}',
      'resource "google_storage_bucket" "backups" {',
      '  name     = "shop-backups"',
      '  location = "europe-west2"',
      '}',
      'resource "google_storage_bucket" "exports" {',
      '  name     = "shop-exports"',
      '  location = "us-central1"',
      '}',
      // A resource the catalog maps to no component of its provider.
      'resource "aws_sns_topic" "orders" {',
      '  name = "orders"',
      '}',
      '',
    ].join('\n'),
  );
  return dir;
}

describe('the table on a big stack', () => {
  const catalog = longNamedCatalog();

  it('gives a long provider name its own line and cuts its components between entries, counting the rest', async () => {
    const dir = stackDir();
    const run = await runCli(['check', dir, '--index', tempDir(), ...OFFLINE], { catalog });
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    const at = lines.indexOf('  Northwind Enterprise Messaging Cloud');
    expect(at, run.stdout).toBeGreaterThan(0);
    const components = (lines[at + 1] as string).trim();
    // The other providers' column is kept: the components start where theirs do.
    const google = lines.find((line) => line.startsWith('  Google Cloud')) as string;
    expect((lines[at + 1] as string).indexOf(components)).toBe(google.indexOf('Cloud Storage'));
    const entries = components.split(', ');
    const more = entries.pop() as string;
    expect(more).toMatch(/^\+\d+ more$/);
    for (const entry of entries) expect(entry).toMatch(/^Northwind Regional Component \d+$/);
    expect(entries.length + Number(more.match(/\d+/)?.[0])).toBe(12);
    expect(components.length).toBeLessThanOrEqual(100);
  });

  it('lists every region a component is used in, once, in the cloud spelling', async () => {
    const dir = stackDir();
    const run = await runCli(['check', dir, '--index', tempDir(), ...OFFLINE], { catalog });
    expect(run.stdout).toContain('Cloud Storage (europe-west2, us-central1)');
    expect(run.stdout).not.toContain('EUROPE-WEST2');
    const json = await runCli(['check', dir, '--format', 'json', '--index', tempDir(), ...OFFLINE], { catalog });
    const report = JSON.parse(json.stdout) as { providers: Array<{ id: string; components: unknown[] }> };
    expect(report.providers.find((provider) => provider.id === 'google-cloud')?.components).toEqual([
      { name: 'Cloud Storage', region: 'europe-west2' },
      { name: 'Cloud Storage', region: 'us-central1' },
    ]);
  });

  it('shows evidence relative to the scanned folder the header names, one line per file', async () => {
    const dir = stackDir();
    const run = await runCli(['check', dir, '--index', tempDir(), ...OFFLINE], { catalog });
    expect(run.stdout.split('\n')[0]).toContain(`from 2 inputs in ${dir} (`);
    expect(run.stdout).toContain('← infra/main.tf:1 google_storage_bucket');
    expect(run.stdout).toMatch(/← package\.json:\d+ @northwind\/component-1, :\d+ @northwind\/component-2, /);
    expect(run.stdout).not.toContain(`${dir}/`);
  });

  it('renders the same components in Markdown, with no empty cell', async () => {
    const dir = stackDir();
    const run = await runCli(['check', dir, '--format', 'markdown', '--index', tempDir(), ...OFFLINE], { catalog });
    const rows = run.stdout.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| ---'));
    expect(rows.length).toBeGreaterThan(2);
    for (const row of rows) expect(row).not.toMatch(/\|\s*\|/);
    expect(run.stdout).toContain('| Google Cloud | Cloud Storage (europe-west2, us-central1) |');
    expect(run.stdout).toContain('| Amazon Web Services | no component named |');
  });
});

describe('the table on a monorepo', () => {
  const catalog = writeTestCatalog(['aws', 'slack', 'openai', 'stripe', 'sentry']);

  it('counts each package once in the header, as the lockfile lists them, not once per workspace that reaches it', async () => {
    const run = await runCli(['check', '.', '--index', tempDir(), ...OFFLINE], { cwd: WORKSPACES, catalog });
    expect(run.code, run.stderr).toBe(0);
    // pnpm's own list of packages: one `name@version:` key each under `packages:`.
    const lock = readFileSync(join(WORKSPACES, 'pnpm-lock.yaml'), 'utf8');
    const section = lock.split(/\n(?=\S)/).find((part) => part.startsWith('packages:')) as string;
    const listed = section.split('\n').filter((line) => /^ {2}\S.*:$/.test(line)).length;
    expect(run.stdout.split('\n')[0]).toContain(`from 1 input (${listed} dependencies)`);
    const json = await runCli(['check', '.', '--format', 'json', '--index', tempDir(), ...OFFLINE], {
      cwd: WORKSPACES,
      catalog,
    });
    const report = JSON.parse(json.stdout) as { inputs: Array<{ dependencies: number }> };
    // The JSON keeps one entry per workspace that reaches a package.
    expect(report.inputs[0]?.dependencies).toBeGreaterThan(listed);
  });

  it('names the workspace each piece of evidence comes from when there are several', async () => {
    const run = await runCli(['check', WORKSPACES, '--index', tempDir(), ...OFFLINE], { catalog });
    expect(run.stdout).toMatch(/← @acme\/api: pnpm-lock\.yaml:\d+ @aws-sdk\/client-s3\n/);
    expect(run.stdout).toMatch(/← @acme\/logger: pnpm-lock\.yaml:\d+ @sentry\/node\n/);
    // From inside one workspace, the workspace is the reader's context and is not repeated.
    const inside = await runCli(['check', '.', '--index', tempDir(), ...OFFLINE], {
      cwd: join(WORKSPACES, 'packages', 'api'),
      catalog,
    });
    expect(inside.stdout).toMatch(/← \.\.\/\.\.\/pnpm-lock\.yaml:\d+ @aws-sdk\/client-s3\n/);
  });
});
