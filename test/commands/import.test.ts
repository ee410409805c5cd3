// `downstack import` through the built CLI, with the import tests' catalog and no embedded snapshot underneath.
import { mkdtemp, open, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeTestCatalog } from '../helpers/catalog.js';
import { runCli } from '../helpers/cli.js';
import { FIXTURES, IMPORT_PROVIDERS } from '../helpers/import-fixture.js';

const catalog = writeTestCatalog(IMPORT_PROVIDERS);

async function runImport(args: string[], input = '') {
  const dir = await mkdtemp(join(tmpdir(), 'downstack-import-cli-'));
  const run = await runCli(['import', ...args, '--index', dir, '--no-snapshot'], { catalog, input });
  return { dir, out: run.stdout, stderr: run.stderr, code: run.code };
}

describe('downstack import', () => {
  it('imports files and prints each incident with its replay window and conflicts', async () => {
    const { dir, out, code } = await runImport([`${FIXTURES}text/guide-page-utc-postmortem.txt`]);
    expect(code).toBe(0);
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
    const { dir, out, stderr, code } = await runImport([
      `${FIXTURES}text/archive-edt-prose.txt`,
      `${FIXTURES}bad/not-an-incident.txt`,
    ]);
    expect(code).toBe(4);
    expect(stderr).toBe(
      `${FIXTURES}bad/not-an-incident.txt:1: no incident found: expected Statuspage JSON, an Atom/RSS history feed, an incidentlib record, or an incident page with dates and times\n`,
    );
    expect(out).toContain(
      '1 incident(s) (1 new, 0 merged into known ones) from 1 entry imported into 1 index file(s); 1 could not be read (listed on stderr)',
    );
    expect(JSON.parse(await readFile(join(dir, 'trello.json'), 'utf8')).incidents).toHaveLength(1);
  });

  it('names every file it cannot read, and imports none of the others', async () => {
    const { dir, stderr, code } = await runImport([
      `${FIXTURES}text/archive-edt-prose.txt`,
      `${FIXTURES}missing.txt`,
      FIXTURES,
    ]);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `downstack: nothing imported, nothing written:\n  ${FIXTURES}missing.txt: cannot read: ENOENT\n  ${FIXTURES}: not a file (import takes documents, not directories)\n`,
    );
    await expect(readFile(join(dir, 'trello.json'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('refuses a 100 MB file without reading it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'downstack-import-big-'));
    const path = join(dir, 'export.txt');
    const handle = await open(path, 'w');
    await handle.truncate(100 * 1024 * 1024);
    await handle.close();
    const { stderr, code } = await runImport([path]);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `downstack: nothing imported, nothing written:\n  ${path}: is 100.0 MB; incident documents over 10 MB are refused (import the provider's incidents.json or a feed instead)\n`,
    );
  });
});
