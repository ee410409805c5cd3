// The bundled history that ships in history/: facts only, within budget, read per provider only when the stack has
// that provider, and under the snapshot and the index.
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCheck } from '../../src/check.js';
import { loadCatalog } from '../../src/catalog/loader.js';
import { type HistoryRecord, historyExtent, historyFiles, readHistory } from '../../src/incidents/history.js';
import { LeadTableSchema } from '../../src/incidents/lead-schema.js';
import { IncidentSchema } from '../../src/incidents/schema.js';
import { IncidentIndex } from '../../src/incidents/store.js';
import type { AppliedLead, Incident } from '../../src/model.js';
import { overlapsWindow, replayWindow } from '../../src/replay.js';
import { tempDir } from '../helpers/catalog.js';
import { HISTORY, historyProviders, historyRecords } from '../helpers/history.js';

const catalog = loadCatalog();
const NOW = new Date('2026-12-01T00:00:00Z');
const providers = historyProviders();
const file = (id: string) => ({ incidents: historyRecords(id) });
const bytesUnder = (path: string): number =>
  statSync(path).isDirectory()
    ? readdirSync(path).reduce((sum, name) => sum + bytesUnder(join(path, name)), 0)
    : statSync(path).size;
const KEYS = [
  'id',
  'title',
  'summary',
  'url',
  'status',
  'impact',
  'startedAt',
  'resolvedAt',
  'timePrecision',
  'components',
  'regions',
];

describe('the bundled history', () => {
  it('covers the four biggest providers for years, within 5 MB', () => {
    expect(providers).toEqual(expect.arrayContaining(['github', 'google-cloud', 'aws', 'azure']));
    const bytes = bytesUnder(HISTORY);
    expect(bytes).toBeLessThanOrEqual(5 * 1024 * 1024);
    const years = (id: string) => new Set(file(id).incidents.map((record) => record.startedAt.slice(0, 4)));
    expect(years('github').size).toBeGreaterThanOrEqual(15);
    expect(years('aws').size).toBeGreaterThanOrEqual(6);
  });

  it('holds only facts: every record is a storable incident of a catalog provider, with a title and summary written from its facts', async () => {
    for (const id of providers) {
      expect(catalog.providers.get(id), `history/${id}/ names a provider the catalog lacks`).toBeDefined();
      for (const record of file(id).incidents) {
        expect(Object.keys(record).filter((key) => key !== 'impactWindow')).toEqual(KEYS);
        expect(record.title).toMatch(/ — (none|minor|major|critical|unknown), (\d+d ?)?(\d+h ?)?(\d+m)?$|one post$/);
        expect(record.summary).toMatch(
          /; impact (none|minor|major|critical|unknown)\. The (start is when the status page first posted; impact may have begun earlier|start is the impact start the provider gives|times are the impact window (stated by|stated in) [^.]+)\.$/,
        );
        if (record.impactWindow) expect(record.impactWindow.source).toMatch(/^stated (by|in) /);
        expect(record.url).toMatch(/^https:\/\//);
      }
      for (const incident of readHistory(HISTORY, id))
        expect(IncidentSchema.safeParse(incident).success, `${id} ${incident.id}`).toBe(true);
    }
  });

  it('ships the lead measured per platform', () => {
    const leads = LeadTableSchema.parse(JSON.parse(readFileSync(join(HISTORY, 'leads.json'), 'utf8')));
    expect(Object.keys(leads.platforms)).toEqual(expect.arrayContaining(['statuspage', 'gcp', 'aws']));
    for (const figure of Object.values(leads.platforms)) {
      expect(figure.sample).toBeGreaterThan(100);
      expect(figure.p25).toBeLessThanOrEqual(figure.minutes);
      expect(figure.minutes).toBeLessThanOrEqual(figure.p75);
    }
  });

  it('keeps the AWS dashboard events it derives with the window their posts stated', async () => {
    // EC2 in us-east-1, 2022-04-19: first post 8:39 AM PDT; the last says "Between 6:35 AM and 11:00 AM PDT".
    const ec2 = readHistory(HISTORY, 'aws').find((incident) => incident.id === 'ec2-us-east-1_1650382771');
    expect(ec2).toMatchObject({
      startedAt: '2022-04-19T15:39:31Z',
      impactWindow: { from: '2022-04-19T13:35:00Z', to: '2022-04-19T18:00:00Z' },
      components: ['Amazon Elastic Compute Cloud'],
      regions: ['us-east-1'],
      timePrecision: 'from-text',
    });
  });
});

describe('reading it', () => {
  /** A history directory whose providers other than those named are damaged: reading one would report it. */
  function historyWithDamage(intact: string[]): string {
    const dir = tempDir('downstack-history-');
    cpSync(join(HISTORY, 'manifest.json'), join(dir, 'manifest.json'));
    for (const id of providers) {
      cpSync(join(HISTORY, id), join(dir, id), { recursive: true });
      if (!intact.includes(id)) writeFileSync(join(dir, id, '2022.json'), '{"schemaVersion": 2, "provider": ');
    }
    return dir;
  }

  /** A check of a stack of `hosts` over [since, until] against `historyDir`. */
  async function checkHosts(hosts: string[], historyDir: string, since: string, until: string) {
    const stack = tempDir('downstack-stack-');
    writeFileSync(join(stack, 'domains.txt'), `${hosts.join('\n')}\n`);
    return runCheck({
      paths: [stack],
      indexDir: tempDir(),
      historyDir,
      since: new Date(since),
      until: new Date(until),
      now: new Date('2026-01-01T00:00:00Z'),
      catalog,
    });
  }

  it("reads only the stack's providers' files", async () => {
    const report = await checkHosts(
      ['api.github.com', 'assets.s3.us-east-1.amazonaws.com'],
      historyWithDamage(['github', 'aws']),
      '2021-01-01T00:00:00Z',
      '2022-12-31T00:00:00Z',
    );
    expect(report.index.problems).toEqual([]);
    expect(report.index.historyIncidents).toBeGreaterThan(1000);
    expect(report.findings.some((finding) => finding.incident.source === 'history')).toBe(true);
  });

  it('names a damaged year file of a provider the stack does use, and goes on with its other years', async () => {
    const report = await checkHosts(
      ['api.github.com'],
      historyWithDamage([]),
      '2021-01-01T00:00:00Z',
      '2022-12-31T00:00:00Z',
    );
    expect(report.index.problems).toEqual([expect.stringMatching(/github\/2022\.json: damaged bundled history/)]);
    const years = new Set(report.findings.map((finding) => finding.incident.startedAt.slice(0, 4)));
    expect(years.has('2021')).toBe(true);
    expect(years.has('2022')).toBe(false);
  });

  it('reads only the years a window touches: damage in other years goes unseen, and the header still counts the whole history', async () => {
    const report = await checkHosts(
      ['api.github.com'],
      historyWithDamage([]),
      '2025-03-01T00:00:00Z',
      '2025-06-01T00:00:00Z',
    );
    expect(report.index.problems).toEqual([]);
    expect(report.findings.length).toBeGreaterThan(0);
    const manifest = JSON.parse(readFileSync(join(HISTORY, 'manifest.json'), 'utf8'));
    expect(report.index.historyIncidents).toBe(manifest.providers.github.incidents);
    expect(report.index.historySpan).toEqual({ from: '2010', to: expect.stringMatching(/^20\d\d$/) });
  });

  it('gives a window the same incidents as the whole history would, across year ends and with a week of lead', async () => {
    const index = new IncidentIndex(tempDir(), null, HISTORY);
    const lead = 7 * 24 * 60 - 1;
    for (const provider of ['github', 'aws', 'google-cloud']) {
      const whole = readHistory(HISTORY, provider);
      for (const [since, until] of [
        ['2020-12-30T00:00:00Z', '2021-01-02T00:00:00Z'],
        ['2022-01-01T00:00:00Z', '2022-01-08T00:00:00Z'],
        ['2023-03-01T00:00:00Z', '2023-06-01T00:00:00Z'],
        ['2024-12-01T00:00:00Z', '2025-03-01T00:00:00Z'],
        // A week of lead reaches back from the first days of January into these.
        ...Array.from({ length: 14 }, (_, i) => [`${2012 + i}-12-20T00:00:00Z`, `${2012 + i}-12-31T23:00:00Z`]),
      ]) {
        const window = { since: new Date(since), until: new Date(until) };
        const overlapping = (incidents: Incident[]) =>
          incidents
            .filter((incident) =>
              overlapsWindow(replayWindow(incident, { minutes: lead } as AppliedLead), window.since, window.until, NOW),
            )
            .map((incident) => incident.id)
            .sort();
        const read = await index.read(provider, window);
        expect(overlapping(read.incidents), `${provider} ${since}`).toEqual(overlapping(whole));
        expect(read.fromHistory, `${provider} ${since}`).toBeLessThan(whole.length);
      }
    }
  });

  it('reads earlier years for a quiet window until it has the incidents shown for context', async () => {
    // Azure's history starts in 2022: a window in 2027 touches no year file, yet five incidents are read before it.
    const window = { since: new Date('2027-02-01T00:00:00Z'), until: new Date('2027-03-01T00:00:00Z'), context: 5 };
    const read = readHistory(HISTORY, 'azure', window);
    expect(read.filter((incident) => incident.startedAt <= '2027-03-01T00:00:00Z').length).toBeGreaterThanOrEqual(5);
    expect(readHistory(HISTORY, 'azure', { ...window, context: 0 })).toEqual([]);
  });

  it('files a record under every year its span touches, and reads it once', async () => {
    const record: HistoryRecord = {
      ...(historyRecords('github')[0] as HistoryRecord),
      id: 'new-year',
      startedAt: '2023-12-31T22:00:00Z',
      resolvedAt: '2024-01-01T03:00:00Z',
    };
    const files = historyFiles('github', [record]);
    expect(files.map((one) => one.year)).toEqual([2024, 2023]);
    const dir = tempDir('downstack-history-');
    mkdirSync(join(dir, 'github'));
    for (const one of files) writeFileSync(join(dir, 'github', `${one.year}.json`), JSON.stringify(one));
    expect(readHistory(dir, 'github').map((incident) => incident.id)).toEqual(['new-year']);
    const inJanuary = { since: new Date('2024-01-01T02:00:00Z'), until: new Date('2024-01-05T00:00:00Z') };
    expect(readHistory(dir, 'github', inJanuary).map((incident) => incident.id)).toEqual(['new-year']);
    expect(historyExtent(dir, 'github')).toBeUndefined();
  });

  it('names an unreadable provider folder among the problems and reads the rest', async () => {
    const dir = tempDir('downstack-history-');
    // A symbolic link to itself: every read of it fails with ELOOP, as an unreadable folder would.
    symlinkSync(join(dir, 'github'), join(dir, 'github'));
    const problems: string[] = [];
    expect(readHistory(dir, 'github', undefined, problems)).toEqual([]);
    expect(problems).toEqual([expect.stringMatching(/github: ELOOP/)]);
    expect(() => readHistory(dir, 'github')).toThrow(/github: ELOOP/);
    const read = await new IncidentIndex(tempDir(), null, dir).read('github');
    expect(read.incidents).toEqual([]);
    expect(read.problems).toEqual([expect.stringMatching(/github: ELOOP/)]);
  });

  it('sits under the snapshot and the index: for the same id the synced incident wins, and the snapshot tells the events it hand-checked', async () => {
    const index = tempDir();
    const [newest] = file('github').incidents;
    const synced = {
      ...readHistory(HISTORY, 'github').find((incident) => incident.id === newest?.id),
      title: 'Incident with Copilot',
      source: 'https://www.githubstatus.com/api/v2/incidents.json',
    };
    mkdirSync(index, { recursive: true });
    writeFileSync(
      join(index, 'github.json'),
      JSON.stringify({ schemaVersion: 1, provider: 'github', incidents: [synced] }),
    );
    const entry = await new IncidentIndex(index).read('github');
    const found = entry.incidents.filter((incident) => incident.id === newest?.id);
    expect(found).toHaveLength(1);
    expect(found[0]?.title).toBe('Incident with Copilot');
    // GitHub's 2018-10-21 outage is the snapshot's, hand-checked; the history leaves its status-page record out.
    const october = entry.incidents.filter(
      (incident) => incident.startedAt >= '2018-10-21T22:00:00Z' && incident.startedAt <= '2018-10-22T02:00:00Z',
    );
    expect(october.map((incident) => incident.id)).toEqual(['github-2018-10-21-mysql-cross-dc-failover']);
    expect(entry.fromHistory).toBeGreaterThan(1000);
  });

  it('leaves the history out with the snapshot (--no-snapshot)', async () => {
    const entry = await new IncidentIndex(tempDir(), null).read('github');
    expect(entry.incidents).toEqual([]);
    expect(entry.fromHistory).toBe(0);
  });
});
