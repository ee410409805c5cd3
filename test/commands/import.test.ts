// The `import` command through commander, with a fixture catalog and a recording CLI context.
import { mkdtemp, open, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { CliContext, CommonOptions } from '../../src/cli.js';
import { importCommand } from '../../src/commands/import.js';
import type { InputProblem } from '../../src/model.js';
import { catalog, FIXTURES } from '../helpers/import-fixture.js';

async function runImport(args: string[], stdin = '') {
  const dir = await mkdtemp(join(tmpdir(), 'downstack-import-cli-'));
  const out: string[] = [];
  const errors: string[] = [];
  let exitCode = 0;
  const problems: InputProblem[] = [];
  const context: CliContext = {
    now: new Date('2026-01-01T00:00:00Z'),
    useColor: () => false,
    indexDir: (flags: CommonOptions) => flags.index ?? dir,
    setExitCode: (code) => {
      exitCode = code;
    },
    stderr: { write: (text: string) => errors.push(...text.trimEnd().split('\n')), isTTY: false },
    offline: true,
    readStdin: async () => stdin,
    reportProblems: (found) => problems.push(...found),
    catalogDirs: (extra) => extra,
    emit: async (text) => {
      out.push(text);
    },
  };
  const program = new Command().exitOverride();
  importCommand({ catalog: () => catalog, snapshotDir: await mkdtemp(join(tmpdir(), 'downstack-snapshot-')) })(
    program,
    context,
  );
  const error = await program.parseAsync(['import', ...args], { from: 'user' }).then(
    () => undefined,
    (caught: unknown) => caught as Error,
  );
  return { dir, out: out.join(''), problems, errors, exitCode, error };
}

describe('downstack import', () => {
  it('imports files and prints each incident with its replay window and conflicts', async () => {
    const { dir, out, error } = await runImport([`${FIXTURES}text/guide-page-utc-postmortem.txt`]);
    expect(error).toBeUndefined();
    expect(out.split('\n')[0]).toBe(
      'added   twingate/text-2021-08-10-controller-outage  replay 2021-08-10 19:39 → 21:24 UTC  Controller outage',
    );
    expect(out).toContain('1 incident(s) (1 new, 0 merged into known ones) from 1 entry imported into 1 index file(s)');
    const stored = JSON.parse(await readFile(join(dir, 'twingate.json'), 'utf8')) as {
      incidents: Array<{ id: string }>;
    };
    expect(stored.incidents.map((incident) => incident.id)).toEqual(['text-2021-08-10-controller-outage']);
  });

  it('reads one document from stdin with "-" and prints JSON', async () => {
    const text = await readFile(`${FIXTURES}incidentlib/twingate-hour-offset.json`, 'utf8');
    const { out } = await runImport(['-', '--format', 'json'], text);
    const printed = JSON.parse(out) as { imported: Array<{ id: string; replay: unknown; conflicts: string[] }> };
    expect(printed.imported[0]).toMatchObject({
      id: 'mhs89xs5rhb8',
      replay: { from: '2025-03-21T20:10:00Z', to: '2025-03-21T21:41:00Z' },
    });
  });

  it('imports every readable entry, lists each bad one on stderr and exits 4', async () => {
    const { dir, out, errors, exitCode } = await runImport([
      `${FIXTURES}text/archive-edt-prose.txt`,
      `${FIXTURES}bad/not-an-incident.txt`,
    ]);
    expect(exitCode).toBe(4);
    expect(errors).toEqual([
      `${FIXTURES}bad/not-an-incident.txt:1: no incident found: expected Statuspage JSON, an Atom/RSS history feed, an incidentlib record, or an incident page with dates and times`,
    ]);
    expect(out).toContain(
      '1 incident(s) (1 new, 0 merged into known ones) from 1 entry imported into 1 index file(s); 1 could not be read (listed on stderr)',
    );
    expect(JSON.parse(await readFile(join(dir, 'trello.json'), 'utf8')).incidents).toHaveLength(1);
  });

  it('names every file it cannot read, and imports none of the others', async () => {
    const { dir, error } = await runImport([
      `${FIXTURES}text/archive-edt-prose.txt`,
      `${FIXTURES}missing.txt`,
      FIXTURES,
    ]);
    expect(error?.message).toBe(
      `nothing imported, nothing written:\n  ${FIXTURES}missing.txt: cannot read: ENOENT\n  ${FIXTURES}: not a file (import takes documents, not directories)`,
    );
    await expect(readFile(join(dir, 'trello.json'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('refuses a 100 MB file without reading it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'downstack-import-big-'));
    const path = join(dir, 'export.txt');
    const handle = await open(path, 'w');
    await handle.truncate(100 * 1024 * 1024);
    await handle.close();
    const { error } = await runImport([path]);
    expect(error?.message).toBe(
      `nothing imported, nothing written:\n  ${path}: is 100.0 MB; incident documents over 10 MB are refused (import the provider's incidents.json or a feed instead)`,
    );
  });
});
