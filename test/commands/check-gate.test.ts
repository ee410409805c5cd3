// The CI gate through the real binary: exit codes per --fail-on, .downstack.yml defaults and ignores, --output.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTestCatalog } from '../helpers/catalog.js';
import { runCli } from '../helpers/cli.js';
import { REPORT_PROVIDERS } from '../helpers/report-fixture.js';

const FIXTURES = 'test/fixtures/report';
/** The report fixture's own providers, never the built-in catalog. */
const FX = { catalog: writeTestCatalog(REPORT_PROVIDERS) };

const STACK = join(FIXTURES, 'stack');
const CONFIGURED = join(FIXTURES, 'configured-stack');
const INDEX = ['--index', join(FIXTURES, 'index')];
/** The whole fixture window: two resolved findings and one open one. */
const FULL = ['--since', '2021-08-10', '--until', '2021-08-12', ...INDEX];
/** The evening of the 10th only: the resolved findings, not the open one (it starts on the 11th). */
const RESOLVED_ONLY = ['--since', '2021-08-10T00:00Z', '--until', '2021-08-10T23:59Z', ...INDEX];
const QUIET = ['--since', '2021-05-01', '--until', '2021-05-02', ...INDEX];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'downstack-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('check --fail-on', () => {
  it.each([
    ['none', FULL, 0],
    ['active', FULL, 1],
    ['any', FULL, 1],
    ['active', RESOLVED_ONLY, 0],
    ['any', RESOLVED_ONLY, 1],
    ['any', QUIET, 0],
  ] as const)('--fail-on %s exits as the contract says (window %#)', async (failOn, window, code) => {
    const run = await runCli(['check', STACK, ...window, '--fail-on', failOn, '--format', 'json'], FX);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(code);
    expect(JSON.parse(run.stdout)).toHaveProperty('schemaVersion', 1);
  });

  it('rejects an unknown format as a usage error', async () => {
    const run = await runCli(['check', STACK, ...FULL, '--format', 'pdf'], FX);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--format.*pdf/);
  });
});

describe('.downstack.yml', () => {
  it('supplies defaults and extra providers, ignores what it says, and warns about an expired ignore', async () => {
    const run = await runCli(['check', CONFIGURED], FX);
    // failOn: active from the file, but the one open incident is ignored until 2099, so the gate passes.
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[0]).toMatch(
      /^::warning file=test\/fixtures\/report\/configured-stack\/package\.json,line=7,/,
    );
    expect(run.stdout).toContain('title=Acme Ledger%3A incident on Ledger API');
    expect(run.stderr).toContain(
      `warning: ${join(CONFIGURED, '.downstack.yml')}:13: ignore for fx-stripe / stripe-2021-08-10-api expired on 2021-01-31`,
    );
    expect(run.stderr).toContain('no longer ignored — 1 finding counts again');
    expect(run.stderr).toMatch(/^ignored: .*\.downstack\.yml:9: fx-github gh-2021-08-11-actions until 2099-12-31/m);
  });

  it('lets command-line flags win over the file', async () => {
    const run = await runCli(['check', CONFIGURED, '--fail-on', 'any', '--format', 'json'], FX);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { findings: Array<{ incident: { id: string } }> };
    expect(report.findings.map((finding) => finding.incident.id).sort()).toEqual([
      'ledger-2021-08-10-writes',
      'stripe-2021-08-10-api',
    ]);
  });

  it('an expired ignore on the open incident lets the gate fail again', async () => {
    const config = join(dir, 'expired.yml');
    await writeFile(
      config,
      [
        'failOn: active',
        'ignore:',
        '  - provider: fx-github',
        '    reason: Actions only',
        '    expires: 2021-08-01',
      ].join('\n'),
    );
    const run = await runCli(['check', STACK, '--since', '2021-08-10', ...INDEX, '--config', config], FX);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `${config}:3: ignore for fx-github expired on 2021-08-01 ("Actions only"); no longer ignored — 1 finding counts again`,
    );
  });

  it('a broken config stops with file:line and exit 2', async () => {
    const config = join(dir, 'broken.yml');
    await writeFile(config, 'failOn: active\nignore:\n  - provider: fx-github\n    expires: soon\n');
    const run = await runCli(['check', STACK, ...FULL, '--config', config], FX);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${config}:3: ignore.0.reason:`);
    expect(run.stderr).toContain(`${config}:4: ignore.0.expires: must be a date`);
    expect(run.stdout).toBe('');
  });
});

describe('check --output', () => {
  it('writes the report to the file atomically and nothing to stdout', async () => {
    const out = join(dir, 'out', 'report.sarif');
    await mkdir(join(dir, 'out'));
    await writeFile(out, 'the previous report');
    const run = await runCli(['check', STACK, ...FULL, '--format', 'sarif', '--output', out], FX);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    const sarif = JSON.parse(await readFile(out, 'utf8')) as { version: string; runs: Array<{ results: unknown[] }> };
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0]?.results).toHaveLength(3);
    expect(await readdir(join(dir, 'out'))).toEqual(['report.sarif']);
  });

  it('writes a self-contained HTML file', async () => {
    const out = join(dir, 'report.html');
    const run = await runCli(['check', STACK, ...FULL, '--format', 'html', '--output', out], FX);
    expect(run.code).toBe(0);
    const html = await readFile(out, 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html.match(/<g class="finding-band"/g)).toHaveLength(3);
    // Nothing is loaded from elsewhere: no scripts, stylesheets, images or fonts by URL.
    expect(html).not.toMatch(/<script|<link |<img |src=|@import|url\(http/i);
  });
});
