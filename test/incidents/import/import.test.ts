// Whole imports against a real index directory: merging, all-or-nothing writes, and every kind of bad input.
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ImportError, LockError } from '../../../src/errors.js';
import { importDocuments, readDocument } from '../../../src/incidents/import/index.js';
import { acquireLock } from '../../../src/incidents/lock.js';
import { IncidentIndex } from '../../../src/incidents/store.js';
import { replayWindow } from '../../../src/replay.js';
import { catalog, FIXTURES, fixture } from '../../helpers/import-fixture.js';

let dir: string;
let index: IncidentIndex;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'downstack-import-'));
  // An empty snapshot directory, so nothing but this test's imports is in the index.
  index = new IncidentIndex(join(dir, 'index'), await mkdtemp(join(tmpdir(), 'downstack-snapshot-')));
});

const run = (paths: string[], options: { provider?: string; dryRun?: boolean } = {}) =>
  importDocuments(paths.map(fixture), { catalog, index, ...options });

describe('importDocuments', () => {
  it("writes the incidents to their providers' index files, readable as `downstack incidents` reads them", async () => {
    const result = await run(['text/guide-page-utc-postmortem.txt', 'text/archive-edt-prose.txt']);
    expect(result.incidents.map((item) => [item.provider, item.action, item.replay])).toEqual([
      ['trello', 'added', { from: '2016-06-28T12:57:00Z', to: '2016-06-28T16:32:00Z' }],
      ['twingate', 'added', { from: '2021-08-10T19:39:00Z', to: '2021-08-10T21:24:00Z' }],
    ]);
    expect((await readdir(join(dir, 'index'))).sort()).toEqual(['trello.json', 'twingate.json']);
    const twingate = await index.read('twingate');
    expect(twingate.incidents).toHaveLength(1);
    expect(twingate.incidents[0]?.impactWindow).toMatchObject({
      from: '2021-08-10T19:39:00Z',
      to: '2021-08-10T19:47:00Z',
    });
  });

  it('merges the same incident imported twice instead of duplicating it', async () => {
    await run(['feed/history-year-boundary.atom']);
    const again = await run(['feed/history-year-boundary.atom']);
    expect(again.incidents.map((item) => item.action)).toEqual(['merged', 'merged']);
    const stored = await index.read('twingate');
    expect(stored.incidents.map((incident) => incident.id)).toEqual(['nye2022abcde', 'dec26late001']);
    expect(stored.incidents[0]?.updates).toHaveLength(2);
  });

  it('merges one incident told by two sources (API JSON and a postmortem page) into one record', async () => {
    const result = await run(['statuspage/incident-single.json', 'text/guide-page-utc-postmortem.txt']);
    // Two entries, one incident: the count printed is the count stored.
    expect(result.entries).toBe(2);
    expect(result.incidents.map((item) => [item.action, item.entries])).toEqual([['added', 2]]);
    const [incident, ...rest] = (await index.read('twingate')).incidents;
    expect(rest).toEqual([]);
    expect(incident?.id).toBe('x8k2m4q9w1zt');
    expect(incident?.source).toBe(
      'import statuspage: incident-single.json; import text: guide-page-utc-postmortem.txt',
    );
    expect(incident?.updates.map((update) => update.status)).toEqual([
      'monitoring',
      'monitoring',
      'resolved',
      'postmortem',
    ]);
    expect(incident?.conflicts?.some((c) => c.includes('stated window 19:45–21:24 UTC'))).toBe(true);
  });

  it('merges into a record with another id and title when the windows mostly coincide, and keeps a separate outage apart', async () => {
    const known = (id: string, title: string, startedAt: string, resolvedAt: string) => ({
      provider: 'trello',
      id,
      title,
      url: '',
      status: 'resolved',
      impact: 'major',
      components: [],
      regions: [],
      startedAt,
      resolvedAt,
      updates: [],
      source: 'snapshot',
    });
    await index.write({
      schemaVersion: 1,
      provider: 'trello',
      incidents: [
        known(
          'trello-2016-06-28-reconnects',
          'Websocket drop took the boards offline',
          '2016-06-28T12:57:00Z',
          '2016-06-28T16:30:00Z',
        ),
        known(
          'trello-2016-06-28-evening',
          'Attachments failed to upload',
          '2016-06-28T22:00:00Z',
          '2016-06-28T23:00:00Z',
        ),
      ],
    });
    const result = await run(['text/archive-edt-prose.txt']);
    expect(result.incidents.map((item) => [item.action, item.id])).toEqual([
      ['merged', 'trello-2016-06-28-reconnects'],
    ]);
    const stored = await index.read('trello');
    expect(stored.incidents.map((incident) => [incident.id, incident.resolvedAt])).toEqual([
      ['trello-2016-06-28-evening', '2016-06-28T23:00:00Z'],
      ['trello-2016-06-28-reconnects', '2016-06-28T16:32:00Z'],
    ]);
  });

  it('compares times as instants when records write them to the minute and to the second', async () => {
    await index.write({
      schemaVersion: 1,
      provider: 'twingate',
      incidents: [
        {
          provider: 'twingate',
          id: 'twingate-2021-08-10-controller',
          title: 'Controller partly unavailable',
          url: '',
          status: 'resolved',
          impact: 'major',
          components: ['Controller'],
          regions: [],
          startedAt: '2021-08-10T20:00Z',
          resolvedAt: '2021-08-10T21:24Z',
          updates: [],
          source: 'snapshot',
        },
      ],
    });
    await run(['statuspage/incident-single.json']);
    const [incident] = (await index.read('twingate')).incidents;
    // The same minute from both: the API's second is the more precise reading and is kept.
    expect([incident?.id, incident?.startedAt, incident?.resolvedAt]).toEqual([
      'twingate-2021-08-10-controller',
      '2021-08-10T20:00:41Z',
      '2021-08-10T21:24:05Z',
    ]);
  });

  it('records the upstream provider and takes --provider over inference', async () => {
    const result = await run(['text/customer-log-no-zone.md'], { provider: 'northwind' });
    expect(result.incidents[0]?.incident.upstream).toEqual(['aws']);
    expect(result.warnings.map((warning) => warning.message)).toEqual([
      expect.stringMatching(/^northwind\/text-2022-07-11-[a-z0-9-]+: zoneAssumed: 2022-07-11 09:33/),
    ]);
  });

  it('warns about a document with no times and imports it without inventing any', async () => {
    const result = await run(['text/no-times.txt']);
    expect(result.warnings[0]?.message).toMatch(/noTimes: the document gives the date 2022-03-04 but no times/);
    expect(result.incidents[0]?.incident.updates).toEqual([]);
  });

  it('keeps incidents that share a history-page link apart, and counts what it stored', async () => {
    const result = await run(['feed/shared-history-link.rss']);
    expect(result.entries).toBe(3);
    expect(result.incidents.map((item) => [item.action, item.title])).toEqual([
      ['added', 'Ingress errors'],
      ['added', 'Slow dashboard'],
      ['added', 'Login failures'],
    ]);
    const stored = (await index.read('northwind')).incidents;
    expect(stored).toHaveLength(3);
    expect(stored.every((incident) => replayWindow(incident).to !== null)).toBe(true);
    // Read again, each merges into itself and nothing else.
    const again = await run(['feed/shared-history-link.rss']);
    expect(again.incidents.map((item) => item.action)).toEqual(['merged', 'merged', 'merged']);
    expect((await index.read('northwind')).incidents).toHaveLength(3);
  });

  it('finishes a batch a crash interrupted after its commit point, and drops one that never reached it', async () => {
    await run(['text/archive-edt-prose.txt']);
    const trello = await readFile(join(dir, 'index', 'trello.json'), 'utf8');
    // A crash after the journal was written: the temp file is complete, the rename never happened.
    await writeFile(
      join(dir, 'index', '.batch-0123456789ab.trello.json.tmp'),
      trello.replace('Trello', 'Trello (new)'),
    );
    await writeFile(
      join(dir, 'index', '.batch-0123456789ab.journal'),
      JSON.stringify([{ temp: '.batch-0123456789ab.trello.json.tmp', target: 'trello.json' }]),
    );
    // A crash before its journal: the batch never happened.
    await writeFile(join(dir, 'index', '.batch-ba9876543210.twingate.json.tmp'), '{}');
    await index.recoverBatch();
    expect(await readFile(join(dir, 'index', 'trello.json'), 'utf8')).toContain('Trello (new)');
    expect((await readdir(join(dir, 'index'))).sort()).toEqual(['trello.json']);
  });

  it('writes nothing on a dry run', async () => {
    const result = await run(['text/archive-edt-prose.txt'], { dryRun: true });
    expect(result.written).toEqual([]);
    await expect(readdir(join(dir, 'index'))).rejects.toThrow(/ENOENT/);
  });
});

describe('bad input: a clear message and nothing written', () => {
  const failing = async (paths: string[], options: { provider?: string } = {}) => {
    const error = await run(paths, options).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ImportError);
    await expect(readdir(join(dir, 'index'))).rejects.toThrow(/ENOENT/);
    return (error as ImportError).problems;
  };

  it('imports the good document and names the one with no recognizable incident', async () => {
    const result = await run(['text/archive-edt-prose.txt', 'bad/not-an-incident.txt']);
    expect(result.incidents.map((item) => item.provider)).toEqual(['trello']);
    expect(result.problems).toEqual([
      `${FIXTURES}bad/not-an-incident.txt:1: no incident found: expected Statuspage JSON, an Atom/RSS history feed, an incidentlib record, or an incident page with dates and times`,
    ]);
    expect((await readdir(join(dir, 'index'))).filter((name) => name.endsWith('.json'))).toEqual(['trello.json']);
  });

  it('writes nothing when no document has an incident', async () => {
    expect(await failing(['bad/not-an-incident.txt'])).toEqual([
      `${FIXTURES}bad/not-an-incident.txt:1: no incident found: expected Statuspage JSON, an Atom/RSS history feed, an incidentlib record, or an incident page with dates and times`,
    ]);
  });

  it('asks for --provider when the document names no catalog provider', async () => {
    expect(await failing(['bad/unknown-provider.txt'])).toEqual([
      `${FIXTURES}bad/unknown-provider.txt:1: entry "Acme Widgets outage": cannot tell which provider this incident belongs to (it names no provider from the catalog); pass --provider ID (an id outside the catalog is accepted)`,
    ]);
  });

  it('stores a vendor outside the catalog under the id given, and says nothing will match it yet', async () => {
    const result = await run(['bad/unknown-provider.txt'], { provider: 'acme' });
    expect(result.incidents.map((item) => [item.provider, item.action])).toEqual([['acme', 'added']]);
    expect(result.warnings.map((warning) => warning.message)).toContainEqual(
      expect.stringMatching(
        /^provider "acme" is not in the catalog: .*nothing in a stack matches them .*\.downstack\.yml/,
      ),
    );
    expect((await index.read('acme')).incidents).toHaveLength(1);
    await expect(run(['bad/unknown-provider.txt'], { provider: '../etc' })).rejects.toThrow(/is not a provider id/);
  });

  it('notes contradictory times and keeps the most credible reading instead of rejecting the document', async () => {
    const [range] = (await run(['bad/contradictory-range.txt'])).incidents;
    expect(range?.incident.impactWindow).toBeUndefined();
    expect(range?.incident.conflicts).toContain('"21:41 and 21:10 UTC" ends before it starts; not read as a window');
    expect(range?.replay).toEqual({ from: '2023-04-03T21:00:00Z', to: '2023-04-03T22:00:00Z' });
    const [backwards] = (await run(['bad/resolved-before-start.json'])).incidents;
    // Nothing the record gives starts by 09:00, so the resolution is the suspect: it becomes the last update.
    expect([backwards?.incident.startedAt, backwards?.incident.resolvedAt]).toEqual([
      '2022-05-01T10:00:00Z',
      '2022-05-01T10:00:00Z',
    ]);
    expect(backwards?.incident.conflicts).toContain(
      'the source has it resolved at 2022-05-01 09:00 UTC, before it started (2022-05-01 10:00 UTC); the resolution is taken as its last update (2022-05-01 10:00 UTC)',
    );
  });

  it('names unrelated and truncated JSON', async () => {
    const problems = await failing(['bad/unrelated.json', 'bad/truncated.json']);
    expect(problems[0]).toMatch(/unrelated\.json:1: JSON, but not a format downstack reads/);
    expect(problems[1]).toMatch(/truncated\.json:1: JSON ends early \(truncated file\?\)/);
  });

  it('refuses an oversized document before reading it as an incident', () => {
    const huge = {
      file: 'huge.txt',
      text: `Northwind Platform outage 2022-01-01 10:00 UTC\n${'x'.repeat(11 * 1024 * 1024)}`,
    };
    expect(() => readDocument(huge)).toThrow(/is 11\.0 MB; incident documents over 10 MB are refused/);
  });

  it('never overwrites an index file it cannot read', async () => {
    await run(['text/guide-page-utc-postmortem.txt']);
    const file = join(dir, 'index', 'twingate.json');
    await writeFile(file, '{ damaged');
    const error = await run(['statuspage/incident-single.json']).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect((error as ImportError).problems[0]).toMatch(
      /twingate\.json:1: damaged index file .*import never overwrites a file it cannot read/,
    );
    expect(await readFile(file, 'utf8')).toBe('{ damaged');
  });

  it('waits for the index lock a sync holds, and writes nothing when it cannot get it', async () => {
    const held = await acquireLock(index.dir, { waitMs: 1_000 });
    try {
      await expect(
        importDocuments([fixture('text/archive-edt-prose.txt')], { catalog, index, lockWaitMs: 300 }),
      ).rejects.toBeInstanceOf(LockError);
      expect((await readdir(index.dir)).filter((name) => name.endsWith('.json'))).toEqual([]);
    } finally {
      await held.release();
    }
    const result = await importDocuments([fixture('text/archive-edt-prose.txt')], { catalog, index, lockWaitMs: 300 });
    expect(result.written).toHaveLength(1);
  });
});
