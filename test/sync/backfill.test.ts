// Backfill against loopback status pages shaped like Statuspage's history archive and incident records, including
// the ways real pages misbehave: 5xx, 429 with Retry-After, cut-off JSON, a 404 record, pages that repeat, and pages
// that never end.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/loader.js';
import { IndexFileSchema } from '../../src/incidents/schema.js';
import { type BackfillEvent, runBackfill } from '../../src/sync/backfill.js';
import { tempDir, writeTestCatalog } from '../helpers/catalog.js';
import { type StatusServer, startStatusServer } from '../helpers/status-server.js';

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

interface Listed {
  code: string;
  /** `2023-05-17T14:02:00Z`: when it began; it lasts 70 minutes. */
  at: string;
  impact?: string;
}

/** One quarter of a history archive, newest month first, as `/history?page=N` answers it. */
function historyPage(quarter: Array<{ year: number; month: number; incidents: Listed[] }>): string {
  return JSON.stringify({
    page: { id: 'kctbh9vrtdwd', name: 'Example', url: 'https://status.example.com', time_zone: 'Etc/UTC' },
    months: quarter.map(({ year, month, incidents }) => ({
      name: MONTH_NAMES[month - 1],
      year,
      incidents: incidents.map(({ code, at, impact }) => ({
        code,
        name: `Incident with Actions ${code}`,
        message: 'This incident has been resolved.',
        impact: impact ?? 'minor',
        timestamp: `${MONTH_NAMES[month - 1]?.slice(0, 3)} <var data-var='date'>${Number(at.slice(8, 10))}</var>, <var data-var='time'>${at.slice(11, 16)}</var> - <var data-var='time'>${at.slice(11, 16)}</var> UTC`,
      })),
    })),
  });
}

/** `/api/v2/incidents/{code}.json`: one record with its updates, newest first, as Statuspage serves it. */
function record({ code, at, impact }: Listed): string {
  const start = Date.parse(at);
  const iso = (ms: number) => new Date(ms).toISOString();
  return JSON.stringify({
    page: { id: 'kctbh9vrtdwd', name: 'Example', url: 'https://status.example.com', time_zone: 'Etc/UTC' },
    incident: {
      id: code,
      name: `Incident with Actions ${code}`,
      status: 'resolved',
      created_at: iso(start),
      updated_at: iso(start + 70 * 60_000),
      monitoring_at: null,
      resolved_at: iso(start + 70 * 60_000),
      impact: impact ?? 'minor',
      shortlink: `https://stspg.io/${code.slice(0, 8)}`,
      started_at: iso(start),
      page_id: 'kctbh9vrtdwd',
      incident_updates: [
        {
          id: `${code}r`,
          status: 'resolved',
          body: 'This incident has been resolved.',
          incident_id: code,
          created_at: iso(start + 70 * 60_000),
          display_at: iso(start + 70 * 60_000),
          affected_components: null,
        },
        {
          id: `${code}i`,
          status: 'investigating',
          body: 'We are investigating reports of degraded performance for Actions.',
          incident_id: code,
          created_at: iso(start),
          display_at: iso(start),
          affected_components: [
            { code: 'br0l2tvcx85d', name: 'Actions', old_status: 'operational', new_status: 'degraded_performance' },
          ],
        },
      ],
      components: [],
    },
  });
}

/** Three quarters of 2023 with three incidents each, then what Statuspage answers past the end: months of 1996. */
const ARCHIVE: Listed[][] = [0, 1, 2].map((quarter) =>
  [0, 1, 2].map((i) => ({
    code: `q${quarter}i${i}abcdefgh`.slice(0, 12),
    at: `2023-${String(9 - quarter * 3 - i).padStart(2, '0')}-1${i}T14:0${i}:00Z`,
  })),
);

let server: StatusServer;
let indexDir: string;
let catalogDir: string;

function serveArchive(pages: Listed[][] = ARCHIVE, prefix = '/gh'): void {
  pages.forEach((incidents, i) => {
    const months = [0, 1, 2].map((m) => {
      const month = 9 - i * 3 - m;
      return {
        year: 2023,
        month,
        incidents: incidents.filter((incident) => Number(incident.at.slice(5, 7)) === month),
      };
    });
    server.routes.set(`${prefix}/history?page=${i + 1}`, { body: historyPage(months) });
    for (const incident of incidents)
      server.routes.set(`${prefix}/api/v2/incidents/${incident.code}.json`, { body: record(incident) });
  });
  for (let past = pages.length + 1; past <= pages.length + 2; past++)
    server.routes.set(`${prefix}/history?page=${past}`, {
      body: historyPage([
        { year: 1996, month: 3, incidents: [] },
        { year: 1996, month: 2, incidents: [] },
      ]),
    });
}

const backfill = (options: Partial<Parameters<typeof runBackfill>[0]> = {}, events: BackfillEvent[] = []) =>
  runBackfill({
    indexDir,
    catalog: loadCatalog([catalogDir]),
    providers: ['gh'],
    rate: 50,
    http: { backoffBaseMs: 5, random: () => 0, timeoutMs: 2_000 },
    onEvent: (event) => events.push(event),
    ...options,
  });

const indexed = () =>
  IndexFileSchema.parse(JSON.parse(readFileSync(join(indexDir, 'gh.json'), 'utf8')))
    .incidents.map((i) => i.id)
    .sort();
const recordRequests = () => server.requests.filter((request) => request.path.includes('/api/v2/incidents/'));

beforeEach(async () => {
  server = await startStatusServer();
  indexDir = tempDir();
  catalogDir = writeTestCatalog([], {
    extra: [
      {
        id: 'gh',
        platform: 'statuspage',
        url: `${server.url}/gh`,
        components: [{ name: 'Actions', id: 'br0l2tvcx85d' }],
      },
    ],
  });
});
afterEach(async () => {
  await server.close();
});

describe('sync --backfill', () => {
  it("walks the whole archive, fetches each record once through the Statuspage reader, and stops past the archive's end", async () => {
    serveArchive();
    const events: BackfillEvent[] = [];
    const run = await backfill({}, events);
    expect(run.providers).toEqual([
      expect.objectContaining({ provider: 'gh', outcome: 'backfilled', pages: 4, fetched: 9, added: 9, left: 0 }),
    ]);
    expect(indexed()).toEqual(
      ARCHIVE.flat()
        .map((incident) => incident.code)
        .sort(),
    );
    const incident = IndexFileSchema.parse(JSON.parse(readFileSync(join(indexDir, 'gh.json'), 'utf8'))).incidents.find(
      (entry) => entry.id === 'q0i0abcdefgh',
    );
    expect(incident).toMatchObject({
      startedAt: '2023-09-10T14:00:00Z',
      resolvedAt: '2023-09-10T15:10:00Z',
      components: ['Actions'],
    });
    // The archive is asked for JSON, and only for JSON: some pages answer HTML to a browser-like Accept.
    expect(server.requests.find((request) => request.url === '/gh/history?page=1')?.headers.accept).toBe(
      'application/json',
    );
    expect(
      events.filter((event) => event.type === 'page').map((event) => event.type === 'page' && event.month),
    ).toEqual(['2023-09-01', '2023-06-01', '2023-03-01', '1996-03-01']);
  });

  it('fetches nothing twice: a re-run reads the first history page, finds nothing new, and stops', async () => {
    serveArchive();
    await backfill();
    const before = server.total();
    const again = await backfill();
    expect(again.providers[0]).toMatchObject({ outcome: 'up-to-date', pages: 1, fetched: 0 });
    expect(server.requests.slice(before).map((request) => request.url)).toEqual(['/gh/history?page=1']);
  });

  it('fetches only the new incident when one was posted since the last complete walk', async () => {
    serveArchive();
    await backfill();
    const newer: Listed = { code: 'newer0000001', at: '2023-09-28T08:00:00Z' };
    serveArchive([[newer, ...(ARCHIVE[0] as Listed[])], ...ARCHIVE.slice(1)]);
    const before = recordRequests().length;
    const again = await backfill();
    expect(again.providers[0]).toMatchObject({ outcome: 'backfilled', fetched: 1, added: 1 });
    expect(
      recordRequests()
        .slice(before)
        .map((request) => request.path),
    ).toEqual(['/gh/api/v2/incidents/newer0000001.json']);
  });

  it('keeps to the rate per host and to two requests in flight', async () => {
    serveArchive();
    for (const route of server.routes.values()) route.delayMs = 30;
    await backfill({ rate: 10 });
    const starts = server.requests.map((request) => request.at);
    // 10 a second is one every 100 ms. One request can leave late on a busy machine and make a single gap look short,
    // so the whole span is measured: n requests need at least n - 1 intervals, less one for that lateness.
    expect(starts.length).toBe(13);
    expect((starts.at(-1) as number) - (starts[0] as number)).toBeGreaterThanOrEqual((starts.length - 2) * 100);
    expect(server.peakConcurrency()).toBeLessThanOrEqual(2);
  });

  it('retries 5xx and 429 with Retry-After, reports a 404 record by its code, and keeps the rest', async () => {
    serveArchive();
    const [first, second, third] = ARCHIVE[0] as Listed[];
    server.routes.set(`/gh/api/v2/incidents/${first?.code}.json`, {
      body: record(first as Listed),
      failFirst: { times: 1, status: 503 },
    });
    server.routes.set(`/gh/api/v2/incidents/${second?.code}.json`, {
      body: record(second as Listed),
      failFirst: { times: 1, status: 429, retryAfter: '1' },
    });
    server.routes.delete(`/gh/api/v2/incidents/${third?.code}.json`);
    const run = await backfill();
    expect(run.providers[0]).toMatchObject({ outcome: 'backfilled', fetched: 8, missing: [third?.code], left: 0 });
    expect(indexed()).toHaveLength(8);
    expect(indexed()).toContain(first?.code);
    expect(indexed()).toContain(second?.code);
    const retried = server.requests.filter((request) => request.path.endsWith(`${second?.code}.json`));
    expect(retried[1]?.at - (retried[0]?.at as number)).toBeGreaterThanOrEqual(1_000);
    // The missing record is not asked again.
    const before = recordRequests().length;
    await backfill();
    expect(recordRequests().length).toBe(before);
  });

  it('keeps a record whose JSON is cut off pending, names it, and fetches it on the next run', async () => {
    serveArchive();
    const broken = (ARCHIVE[1] as Listed[])[0] as Listed;
    const full = record(broken);
    server.routes.set(`/gh/api/v2/incidents/${broken.code}.json`, { body: full.slice(0, full.length / 2) });
    const run = await backfill();
    expect(run.providers[0]).toMatchObject({ outcome: 'partial', fetched: 8, added: 8, left: 1 });
    expect(run.providers[0]?.warnings.join('\n')).toMatch(
      new RegExp(`${broken.code}\\.json:\\d+: .*left for the next run`),
    );
    expect(indexed()).not.toContain(broken.code);
    server.routes.set(`/gh/api/v2/incidents/${broken.code}.json`, { body: full });
    const next = await backfill();
    expect(next.providers[0]).toMatchObject({ outcome: 'backfilled', fetched: 1, left: 0 });
    expect(indexed()).toContain(broken.code);
  });

  it('stops at a page that repeats an earlier one (a host that ignores ?page=)', async () => {
    server.routes.set('/gh/history', {
      body: historyPage([{ year: 2023, month: 9, incidents: ARCHIVE[0] as Listed[] }]),
    });
    for (const incident of ARCHIVE[0] as Listed[])
      server.routes.set(`/gh/api/v2/incidents/${incident.code}.json`, { body: record(incident) });
    const run = await backfill();
    expect(run.providers[0]).toMatchObject({ pages: 2, fetched: 3 });
    expect(run.providers[0]?.warnings).toEqual([expect.stringMatching(/history\?page=2: repeats page 1/)]);
  });

  it('stops a walk that never ends, and the next run goes on from where it stopped', async () => {
    const endless: Listed[][] = Array.from({ length: 8 }, (_, page) => [
      { code: `endless${String(page).padStart(5, '0')}`, at: `2023-0${9 - (page % 9)}-01T00:00:00Z` },
    ]);
    endless.forEach((incidents, i) => {
      server.routes.set(`/gh/history?page=${i + 1}`, {
        body: historyPage([{ year: 2023 - i, month: 9, incidents }]),
      });
      for (const incident of incidents)
        server.routes.set(`/gh/api/v2/incidents/${incident.code}.json`, { body: record(incident) });
    });
    const run = await backfill({ maxPages: 3 });
    expect(run.providers[0]).toMatchObject({ outcome: 'partial', pages: 3, fetched: 3 });
    expect(run.providers[0]?.warnings).toEqual([expect.stringMatching(/still answering after 3 pages/)]);
    const next = await backfill({ maxPages: 5 });
    expect(next.providers[0]).toMatchObject({ pages: 2, fetched: 2 });
    expect(server.requests.filter((request) => request.url === '/gh/history?page=1')).toHaveLength(1);
  });

  it('gives up on a page whose body never ends, and resumes the walk there next time', async () => {
    serveArchive();
    const page2 = server.routes.get('/gh/history?page=2');
    server.routes.set('/gh/history?page=2', { hang: true });
    const run = await backfill({ http: { timeoutMs: 300, maxRetries: 0, random: () => 0 } });
    expect(run.providers[0]).toMatchObject({ outcome: 'partial', fetched: 3 });
    expect(run.providers[0]?.warnings.join('\n')).toMatch(/page=2: timed out .*next run goes on from page 2/);
    server.routes.set('/gh/history?page=2', page2 as NonNullable<typeof page2>);
    const next = await backfill();
    expect(next.providers[0]).toMatchObject({ outcome: 'backfilled', fetched: 6 });
    expect(indexed()).toHaveLength(9);
  });

  it('--since stops paging once the archive is older', async () => {
    serveArchive();
    const run = await backfill({ since: new Date('2023-05-15T00:00:00Z') });
    // Page 2 covers April–June 2023: its May and June incidents count, April's is older; page 3 is all older.
    expect(run.providers[0]).toMatchObject({ pages: 3, fetched: 5 });
    expect(server.requests.some((request) => request.url === '/gh/history?page=4')).toBe(false);
  });

  it('says a page with no history archive publishes none, instead of failing', async () => {
    server.routes.set('/gh/history', { status: 404, body: 'not found' });
    const run = await backfill();
    expect(run.providers[0]).toMatchObject({ outcome: 'skipped' });
    expect(run.providers[0]?.reason).toMatch(/404 — this page publishes no history archive/);
  });

  it('leaves no journal behind once everything is merged', async () => {
    serveArchive();
    await backfill();
    expect(readdirSync(join(indexDir, '.backfill', 'gh')).sort()).toEqual(['state.json']);
  });
});
