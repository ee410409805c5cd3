// One hostile corpus through every command and every format of the built CLI: whatever a file name, a lockfile, an
// index file, an imported document, a status page or a catalog file carries, nothing raw reaches stdout or stderr —
// no control or escape sequence, no bidi or invisible character, no CI workflow command we did not write ourselves,
// no Markdown that breaks a table or notifies people.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECK_FORMATS } from '../../src/report/formats.js';
import { type CliRun, runCli } from '../helpers/cli.js';
import { startStatusServer, type StatusServer } from '../helpers/status-server.js';
import {
  type Corpus,
  PAYLOAD,
  STACK_DIR,
  statuspagePayload,
  TITLE,
  UNKNOWN_SDK,
  WRAPPER,
  writeCorpus,
} from './hostile-corpus.js';

// Written out by hand from the Unicode tables: C0 (but tab and line feed), DEL, C1, the bidi controls, zero-width
// and invisible format characters, tag characters.
const RAW =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}]/u;
// Our own annotations: a known command, properties escaped (no raw `,` or `:` in a value), one line.
const ANNOTATION = /^::(error|warning|notice)( [a-z]+=[^,:]*(,[a-z]+=[^,:]*)*)?::.*$/;

let server: StatusServer;
let corpus: Corpus;
const runs = new Map<string, CliRun>();

function run(args: string[], options: { env?: Record<string, string>; online?: boolean } = {}) {
  return runCli(args, { catalog: corpus.catalog, ...options });
}

/** Nothing raw in either stream; `::` starts a line only in our own annotations, and only where they are allowed. */
function expectNothingRaw(label: string, result: CliRun, annotations = false): void {
  for (const [stream, output] of [
    ['stdout', result.stdout],
    ['stderr', result.stderr],
  ] as const) {
    const where = `${label} ${stream}`;
    expect(output, where).not.toMatch(RAW);
    expect(output, where).not.toMatch(/##[a-z]*\[/i);
    for (const line of output.split('\n')) {
      if (!/^\s*::/.test(line)) continue;
      expect(annotations && stream === 'stdout', `${where}: ${line}`).toBe(true);
      expect(line, where).toMatch(ANNOTATION);
    }
  }
}

beforeAll(async () => {
  server = await startStatusServer();
  corpus = writeCorpus(server.url);
  server.routes.set('/fx-github/api/v2/incidents.json', {
    body: JSON.stringify(statuspagePayload('gh-1', 'https://stspg.io/gh1')),
  });
  server.routes.set('/fx-github/api/v2/scheduled-maintenances.json', {
    body: JSON.stringify({ page: { id: 'page1' }, scheduled_maintenances: [] }),
  });
  const index = ['--index', corpus.index];
  // The index is filled the three ways it can be: a published file (written by the corpus), import and sync.
  runs.set('import', await run(['import', corpus.document, '--provider', 'fx-stripe', ...index]));
  runs.set(
    'import --dry-run json',
    await run(['import', corpus.document, '--provider', 'fx-stripe', '--dry-run', '--format', 'json', ...index]),
  );
  runs.set('sync', await run(['sync', '--provider', 'fx-github', ...index], { online: true }));
});

afterAll(async () => {
  await server.close();
  rmSync(corpus.root, { recursive: true, force: true });
});

describe('a hostile corpus through every command and format', () => {
  it('import and sync take the hostile documents in and say so cleanly', () => {
    for (const label of ['import', 'import --dry-run json', 'sync']) {
      const result = runs.get(label) as CliRun;
      expect(result.code, `${label}: ${result.stderr}`).toBe(0);
      expectNothingRaw(label, result);
    }
    expect(runs.get('import')?.stdout).toMatch(/^added +fx-stripe\/st-1 .*Checkout down/m);
    expect(runs.get('sync')?.stderr).toMatch(/^fx-github: synced \(1 new/m);
  });

  for (const format of CHECK_FORMATS) {
    it(`check --format ${format}`, async () => {
      const result = await run([
        'check',
        corpus.stack,
        '--format',
        format,
        '--since',
        '2020-01-01',
        '--index',
        corpus.index,
      ]);
      expect(result.code, result.stderr).toBe(0);
      expectNothingRaw(`check ${format}`, result, format === 'github');
      // The report is about the hostile stack: it found the providers and the incidents.
      expect(result.stdout).toMatch(/Checkout down/);
      if (format === 'json' || format === 'sarif') JSON.parse(result.stdout);
      if (format === 'json') {
        const report = JSON.parse(result.stdout) as {
          notInCatalog: string[];
          providers: Array<{ evidence: Array<{ via: string[] }> }>;
        };
        // JSON keeps the data exact: the reader gets every character back from the escapes.
        expect(report.notInCatalog).toContain(UNKNOWN_SDK);
        expect(report.providers.flatMap((provider) => provider.evidence.flatMap((d) => d.via))).toContain(WRAPPER);
      }
      // A hostile job name in a workflow reaches the replay checklist too.
      if (format === 'table' || format === 'markdown') expect(result.stdout).toMatch(/Nightly/);
      if (format === 'markdown') expectSoundMarkdown(result.stdout);
      if (format === 'github')
        expect(result.stdout.split('\n').filter((line) => line.startsWith('::')).length).toBeGreaterThan(3);
    });
  }

  it('a report written with --output passes the same boundary as standard output', async () => {
    const file = join(corpus.root, 'report.md');
    const args = ['check', corpus.stack, '--format', 'markdown', '--since', '2020-01-01', '--index', corpus.index];
    const written = await run([...args, '--output', file]);
    expect(written.code, written.stderr).toBe(0);
    const text = readFileSync(file, 'utf8');
    expectNothingRaw('check --output', { ...written, stdout: text });
    expect(clockFree(text)).toBe(clockFree((await run(args)).stdout));
  });

  it('check --fail-on active syncs the hostile status page first and fails the gate cleanly', async () => {
    const result = await run(['check', corpus.stack, '--fail-on', 'active', '--index', corpus.index], {
      online: true,
    });
    expect(result.code, result.stderr).toBe(1);
    expectNothingRaw('check --fail-on active', result);
    expect(result.stdout).toMatch(/ACTIVE +GitHub · Checkout down/);
    expect(result.stdout).toMatch(/^index: synced just now/m);
  });

  it('check in colour adds our colour and nothing else', async () => {
    const args = ['check', corpus.stack, '--since', '2020-01-01', '--index', corpus.index];
    const plain = await run(args);
    const colour = await run(args, { env: { NO_COLOR: '', FORCE_COLOR: '1' } });
    expect(colour.stdout).toMatch(/\u001b\[1m/);
    expect(clockFree(colour.stdout.replace(/\u001b\[\d+(;\d+)*m/g, ''))).toBe(clockFree(plain.stdout));
  });

  it('incidents, as a table and as JSON that keeps every character', async () => {
    const table = await run(['incidents', '--index', corpus.index]);
    expectNothingRaw('incidents', table);
    expect(table.stdout).toMatch(/Amazon Web Services: Checkout down/);
    const json = await run(['incidents', '--index', corpus.index, '--format', 'json']);
    expectNothingRaw('incidents json', json);
    const incidents = JSON.parse(json.stdout) as Array<{ id: string; title: string; regions: string[] }>;
    expect(incidents.find((incident) => incident.id === 'aws-2')).toMatchObject({
      title: TITLE,
      regions: [expect.stringContaining('us-east-1\u001b')],
    });
  });

  it('explain, by provider and by a hostile package name, as text and JSON', async () => {
    for (const args of [
      ['explain', 'fx-stripe', corpus.stack],
      ['explain', 'fx-stripe', corpus.stack, '--format', 'json'],
      ['explain', 'stripe', join(corpus.stack, STACK_DIR)],
      ['explain', WRAPPER, corpus.stack],
      ['explain', `missing${PAYLOAD}`, corpus.stack],
    ]) {
      const result = await run(args);
      expectNothingRaw(args.slice(0, 2).join(' '), result);
    }
    const text = await run(['explain', 'fx-stripe', corpus.stack]);
    expect(text.stdout).toMatch(/^ {4}shop → wrapper.* → stripe@16\.0\.0 {2}\[transitive\]/m);
  });

  it('providers: the list, a search, JSON and one repository-defined provider', async () => {
    for (const args of [
      ['providers'],
      ['providers', 'evil'],
      ['providers', '--format', 'json'],
      ['providers', 'show', 'fx-evil'],
      ['providers', `x${PAYLOAD}`],
    ]) {
      const result = await run(args);
      expect(result.code, result.stderr).toBe(0);
      expectNothingRaw(args.join(' '), result);
    }
  });

  it('jobs, as a table and as JSON that keeps every character', async () => {
    const table = await run(['jobs', corpus.stack]);
    expect(table.code, table.stderr).toBe(0);
    expectNothingRaw('jobs', table);
    expect(table.stdout).toMatch(/^ {2}Nightly/m);
    const json = await run(['jobs', corpus.stack, '--format', 'json']);
    expectNothingRaw('jobs json', json);
    expect((JSON.parse(json.stdout) as { jobs: Array<{ name: string }> }).jobs[0]?.name).toContain('\u001b');
  });

  it('feed, for one provider and for the stack', async () => {
    for (const args of [
      ['feed', '--provider', 'fx-aws', '--since', '2020-01-01', '--index', corpus.index],
      ['feed', corpus.stack, '--since', '2020-01-01', '--index', corpus.index],
    ]) {
      const result = await run(args);
      expect(result.code, result.stderr).toBe(0);
      expectNothingRaw(args.slice(0, 2).join(' '), result);
      expect(result.stdout).toMatch(/<title type="text">Amazon Web Services: Checkout down/);
    }
  });

  it('mistakes on the command line echo the hostile argument cleanly', async () => {
    for (const args of [
      ['check', `--x${PAYLOAD}`],
      ['incidents', '--provider', `x${PAYLOAD}`, '--index', corpus.index],
      ['sync', '--provider', `x${PAYLOAD}`, '--index', corpus.index],
      ['check', join(corpus.root, `missing${PAYLOAD}`), '--index', corpus.index],
      ['check', '--since', `x${PAYLOAD}`, corpus.stack],
      ['import', join(corpus.root, `missing${PAYLOAD}`), '--index', corpus.index],
    ]) {
      const result = await run(args);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBeGreaterThanOrEqual(2);
      expect(result.stderr.length).toBeGreaterThan(0);
      expectNothingRaw(args.slice(0, 2).join(' '), result);
    }
  });
});

/** Every table row has its header's cell count, and no value starts a line, a heading or a link of its own. */
function expectSoundMarkdown(markdown: string): void {
  let cells = 0;
  for (const line of markdown.split('\n')) {
    if (/^#/.test(line)) expect(line).toMatch(/^#{2,3} [A-Z]|^## downstack:/);
    if (!line.startsWith('|')) {
      cells = 0;
      continue;
    }
    const count = line.replace(/\\\|/g, '').split('|').length - 2;
    if (cells === 0) cells = count;
    expect(count, line).toBe(cells);
  }
  for (const raw of ['@ops-team', 'acme/infra#12', '#34', 'GH-5', 'www.evil', 'https://evil'])
    expect(markdown).not.toContain(raw);
}

// An open incident's length and the window's end run to now, so two runs a minute apart differ there and nowhere else.
function clockFree(report: string): string {
  return report
    .replace(/\b\d+[dhm]( \d+[hm])?\b/g, '<duration>')
    .replace(/(window .+? → )\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/, '$1<now>');
}
