import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IncidentIndex } from '../../src/incidents/store.js';
import { IndexFileSchema, type IndexFile } from '../../src/incidents/schema.js';
import { runSync, type SyncOptions } from '../../src/sync/sync.js';
import { tempDir, testCatalog, type TestProvider } from '../helpers/catalog.js';
import { startStatusServer, type Route, type StatusServer } from '../helpers/status-server.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'sync');
const fixture = (path: string) => readFileSync(join(FIXTURES, path), 'utf8');
const FAST = { timeoutMs: 1_000, backoffBaseMs: 5, backoffMaxMs: 20, maxRetryAfterMs: 3_000 };
const _EMPTY_SP = '{"page":{"id":"x","name":"x","url":"https://status.example.com"},"incidents":[]}';
const EMPTY_MAINT = '{"page":{"id":"x","name":"x","url":"https://status.example.com"},"scheduled_maintenances":[]}';

let server: StatusServer;
let indexDir: string;

beforeEach(async () => {
  server = await startStatusServer();
  indexDir = tempDir();
});
afterEach(async () => {
  await server.close();
});

/** A Statuspage provider under /<id>/ whose incidents.json is `incidents`; the rest of its endpoints are calm. */
function statuspage(id: string, incidents: Route, extra: Record<string, Route> = {}): TestProvider {
  server.routes.set(`/${id}/api/v2/incidents.json`, incidents);
  server.routes.set(`/${id}/api/v2/scheduled-maintenances.json`, { body: EMPTY_MAINT });
  for (const [path, route] of Object.entries(extra)) server.routes.set(`/${id}${path}`, route);
  return { id, platform: 'statuspage', url: `${server.url}/${id}` };
}

async function sync(providers: TestProvider[], options: Partial<SyncOptions> = {}) {
  const catalog = testCatalog([], { extra: providers });
  return runSync({
    indexDir,
    catalog,
    providers: providers.map((provider) => provider.id),
    http: FAST,
    lockWaitMs: 5_000,
    ...options,
  });
}

const readIndex = (id: string): IndexFile =>
  IndexFileSchema.parse(JSON.parse(readFileSync(join(indexDir, `${id}.json`), 'utf8')));
const ids = (id: string) =>
  readIndex(id)
    .incidents.map((incident) => incident.id)
    .sort();
const count = (path: string) => server.counts.get(path) ?? 0;

async function seedIndex(id: string, incidents: IndexFile['incidents']): Promise<string> {
  await new IncidentIndex(indexDir).write({
    schemaVersion: 1,
    provider: id,
    syncedAt: '2026-01-01T00:00:00Z',
    incidents,
  });
  return readFileSync(join(indexDir, `${id}.json`), 'utf8');
}

const OLD_INCIDENT = {
  provider: 'gh',
  id: 'old0incident',
  title: 'An outage from before the API window',
  url: 'https://www.githubstatus.com/incidents/old0incident',
  status: 'resolved' as const,
  impact: 'major' as const,
  kind: 'incident' as const,
  components: ['Git Operations'],
  regions: [],
  startedAt: '2018-10-21T22:52:00Z',
  resolvedAt: '2018-10-22T23:03:00Z',
  updates: [],
  source: 'https://www.githubstatus.com/api/v2/incidents.json',
};

describe('a Statuspage provider', () => {
  it('syncs, keeps older history, records validators and sources, then re-syncs on 304s alone', async () => {
    const gh = statuspage(
      'gh',
      { body: fixture('statuspage/incidents-github.json'), etag: '"v1"' },
      {
        '/api/v2/scheduled-maintenances.json': {
          body: fixture('statuspage/scheduled-maintenances.json'),
          lastModified: 'Sat, 31 May 2025 04:30:21 GMT',
        },
        '/api/v2/components.json': { body: fixture('statuspage/components-grouped.json'), etag: '"c1"' },
      },
    );
    await seedIndex('gh', [OLD_INCIDENT]);
    const first = await sync([gh]);
    expect(first.providers[0]).toMatchObject({ outcome: 'synced', added: 3, total: 4 });
    // history.atom is a 404 here: optional, so a warning and not a failure.
    expect(first.providers[0]?.warnings.join('\n')).toMatch(/history\.atom: HTTP 404/);
    expect(ids('gh')).toEqual(['69sb0f8lydp4', 'd8x1kq2n5z7w', 'nwjwwhj118sf', 'old0incident']);
    const file = readIndex('gh');
    expect(file.http?.[`${server.url}/gh/api/v2/incidents.json`]).toEqual({ etag: '"v1"' });
    expect(file.http?.[`${server.url}/gh/api/v2/scheduled-maintenances.json`]).toEqual({
      lastModified: 'Sat, 31 May 2025 04:30:21 GMT',
    });
    expect(file.sources).toContain(`${server.url}/gh/api/v2/incidents.json`);
    expect(file.incidents.find((incident) => incident.id === 'nwjwwhj118sf')?.kind).toBe('maintenance');
    expect(server.requests[0]?.headers['user-agent']).toMatch(
      /^downstack\/\d+\.\d+\.\d+ \(\+https:\/\/www\.npmjs\.com\/package\/downstack\)$/,
    );

    const before = server.total();
    const second = await sync([gh]);
    expect(second.providers[0]).toMatchObject({ outcome: 'unchanged', total: 4 });
    expect(second.http.notModified).toBe(3);
    expect(server.total() - before).toBe(4);
    const conditional = server.requests.slice(before).find((request) => request.path === '/gh/api/v2/incidents.json');
    expect(conditional?.headers['if-none-match']).toBe('"v1"');
    expect(file.syncedAt).not.toBe('2026-01-01T00:00:00Z');
  });

  it('upserts by id: a later payload replaces the open incident with its resolved version', async () => {
    const open = JSON.parse(fixture('statuspage/incidents-github.json'));
    const gh = statuspage('gh', { body: JSON.stringify(open) });
    await sync([gh]);
    expect(readIndex('gh').incidents.find((incident) => incident.id === 'd8x1kq2n5z7w')?.resolvedAt).toBeNull();
    open.incidents[1].status = 'resolved';
    open.incidents[1].resolved_at = '2019-02-20T13:10:00.000-06:00';
    server.routes.set('/gh/api/v2/incidents.json', { body: JSON.stringify(open) });
    const report = await sync([gh]);
    expect(report.providers[0]).toMatchObject({ outcome: 'synced', added: 0, updated: 1 });
    expect(readIndex('gh').incidents.find((incident) => incident.id === 'd8x1kq2n5z7w')).toMatchObject({
      status: 'resolved',
      resolvedAt: '2019-02-20T19:10:00Z',
    });
  });

  it('joins components named in updates to the catalog by id', async () => {
    const cf = statuspage('cf', { body: fixture('statuspage/incidents-cloudflare-grouped.json') });
    cf.components = [{ name: 'Durable Objects (catalog)', id: 'bty1yz6dhh0v' }];
    await sync([cf]);
    expect(readIndex('cf').incidents[0]?.components).toEqual([
      'Cloudflare Sites and Services - Workflows',
      'Durable Objects (catalog)',
    ]);
  });
});

describe('faults: the provider keeps its data and the request count stays bounded', () => {
  async function failing(route: Route, http: Partial<SyncOptions['http']> = {}, answered = false) {
    const gh = statuspage('gh', route);
    const before = await seedIndex('gh', [OLD_INCIDENT]);
    const report = await sync([gh], { http: { ...FAST, ...http } });
    const after = readFileSync(join(indexDir, 'gh.json'), 'utf8');
    expect(after).toBe(before);
    // Once the primary endpoint failed at the HTTP level, nothing else on the page was asked for.
    if (!answered) expect(count('/gh/api/v2/scheduled-maintenances.json')).toBe(0);
    return { report: report.providers[0], requests: count('/gh/api/v2/incidents.json') };
  }

  it('500: at most 3 retries, then failed with the reason', async () => {
    const { report, requests } = await failing({ status: 500, body: 'boom' });
    expect(report).toMatchObject({ outcome: 'failed', total: 1 });
    expect(report?.reason).toMatch(/HTTP 500.* after 4 attempts/);
    expect(requests).toBe(4);
  });

  it('503 with Retry-After: waits, retries once, and syncs', async () => {
    const gh = statuspage('gh', {
      body: fixture('statuspage/incidents-github.json'),
      failFirst: { times: 1, status: 503, retryAfter: '1' },
    });
    const report = await sync([gh]);
    expect(report.providers[0]?.outcome).toBe('synced');
    expect(count('/gh/api/v2/incidents.json')).toBe(2);
    expect(report.http.retries).toBe(1);
  });

  it('429 asking for longer than we wait: one request, no retry storm', async () => {
    const { report, requests } = await failing({
      body: '{}',
      failFirst: { times: 99, status: 429, retryAfter: '3600' },
    });
    expect(report?.reason).toMatch(/HTTP 429.*3600 s/);
    expect(requests).toBe(1);
  });

  it('a server that never answers times out', async () => {
    const { report, requests } = await failing({ hang: true }, { timeoutMs: 200 });
    expect(report?.reason).toMatch(/timed out/);
    expect(requests).toBeLessThanOrEqual(4);
  });

  it('a slow trickle body times out while reading', async () => {
    const { report, requests } = await failing(
      { body: fixture('statuspage/incidents-github.json'), trickleMs: 50 },
      { timeoutMs: 300, maxRetries: 1 },
    );
    expect(report?.reason).toMatch(/timed out after 0\.3 s while reading the body/);
    expect(requests).toBe(2);
  });

  it('a truncated body (connection cut) is retried, then failed', async () => {
    const { report, requests } = await failing({ body: fixture('statuspage/incidents-github.json'), truncate: true });
    expect(report?.reason).toMatch(/body cut off|terminated|ECONNRESET|socket/i);
    expect(requests).toBeLessThanOrEqual(4);
  });

  it('a complete but truncated JSON document fails with file:line and is not retried', async () => {
    const text = fixture('statuspage/incidents-github.json');
    const { report, requests } = await failing({ body: text.slice(0, 900) }, {}, true);
    expect(report?.reason).toMatch(/incidents\.json:\d+: (JSON ends early|invalid JSON)/);
    expect(requests).toBe(1);
  });

  it('an HTML page where JSON was expected fails and names it', async () => {
    const { report, requests } = await failing(
      { body: '<!DOCTYPE html><html><body>Checking your browser…</body></html>', contentType: 'application/json' },
      {},
      true,
    );
    expect(report?.reason).toMatch(/expected JSON or a feed, got an HTML page \(application\/json\)/);
    expect(requests).toBe(1);
  });

  it('a non-JSON body fails', async () => {
    const { report } = await failing({ body: 'Service Unavailable', contentType: 'text/plain' }, {}, true);
    expect(report?.reason).toMatch(/got something else \(text\/plain\)/);
  });

  it('valid JSON with a wrong content-type is still read', async () => {
    const gh = statuspage('gh', {
      body: fixture('statuspage/incidents-github.json'),
      contentType: 'text/html; charset=utf-8',
    });
    expect((await sync([gh])).providers[0]?.outcome).toBe('synced');
  });

  it('follows an http redirect', async () => {
    server.routes.set('/moved/api/v2/incidents.json', { body: fixture('statuspage/incidents-github.json') });
    const moved = statuspage('gh', { status: 301, headers: { location: '/moved/api/v2/incidents.json' } });
    expect((await sync([moved])).providers[0]?.outcome).toBe('synced');
    expect(ids('gh')).toContain('69sb0f8lydp4');
  });

  it('refuses a redirect to a non-http(s) scheme', async () => {
    const ftp = await failing({ status: 302, headers: { location: 'ftp://127.0.0.1/incidents.json' } });
    expect(ftp.report?.reason).toMatch(/non-http\(s\) URL \(ftp:\) refused/);
  });

  it('a redirect loop ends after 5 hops', async () => {
    const { report, requests } = await failing({ status: 302, headers: { location: '/gh/api/v2/incidents.json' } });
    expect(report?.reason).toMatch(/more than 5 redirects/);
    expect(requests).toBe(6);
  });

  it('a 50 MB body is cut off at the size cap', async () => {
    const { report, requests } = await failing({
      hugeBytes: 50 * 1024 * 1024,
      headers: { 'transfer-encoding': 'chunked' },
    });
    expect(report?.reason).toMatch(/over the 32 MB limit/);
    expect(requests).toBe(1);
  });

  it('gzip and br bodies are decoded', async () => {
    const gh = statuspage('gh', { body: fixture('statuspage/incidents-github.json'), compress: true });
    expect((await sync([gh])).providers[0]?.outcome).toBe('synced');
    expect(server.requests[0]?.headers['accept-encoding']).toMatch(/br/);
  });

  it('many providers on one failing host: the host is given up on, not hammered', async () => {
    const providers = Array.from({ length: 10 }, (_, i) =>
      statuspage(`down${i}`, { status: 503, body: 'down' }, { '/api/v2/scheduled-maintenances.json': { status: 503 } }),
    );
    const report = await sync(providers);
    expect(report.providers.every((entry) => entry.outcome === 'failed')).toBe(true);
    // 10 providers × 4 endpoints × 4 attempts would be 160; the per-host breaker and retry budget keep it small.
    expect(server.total()).toBeLessThanOrEqual(16);
    expect(report.providers.some((entry) => /failed \d+ requests in a row/.test(entry.reason ?? ''))).toBe(true);
  });

  it('no network at all: after a few refused connections the rest are not attempted', async () => {
    const closed = await Promise.all(Array.from({ length: 20 }, () => startStatusServer()));
    const providers = closed.map((dead, i) => ({ id: `off${i}`, platform: 'statuspage', url: `${dead.url}/off${i}` }));
    await Promise.all(closed.map((dead) => dead.close()));
    const report = await sync(providers);
    expect(report.providers.every((entry) => entry.outcome === 'failed')).toBe(true);
    expect(
      report.providers.filter((entry) => /network looks unreachable/.test(entry.reason ?? '')).length,
    ).toBeGreaterThan(5);
    expect(report.http.requests).toBeLessThanOrEqual(16);
  });

  it('the deadline signal stops everything and keeps the data', async () => {
    const { report } = await failing({ hang: true }, { timeoutMs: 10_000, signal: AbortSignal.timeout(200) });
    expect(report?.reason).toMatch(/deadline reached/);
  });
});

describe('platforms that only list what is open', () => {
  it('Azure: an item that leaves the feed is closed; a reused guid later is a new incident', async () => {
    const azure: TestProvider = {
      id: 'azure',
      platform: 'azure',
      url: `${server.url}/azure/en-us/status`,
      feed: `${server.url}/azure/feed/`,
      regions: ['westus'],
    };
    server.routes.set('/azure/feed/', { body: fixture('azure/feed.xml'), contentType: 'application/rss+xml' });
    await sync([azure]);
    expect(readIndex('azure').incidents[0]).toMatchObject({
      id: 'issues-connecting-to-resources-in-west-us',
      resolvedAt: null,
      regions: ['westus'],
    });

    server.routes.set('/azure/feed/', { body: fixture('azure/feed-empty.xml'), contentType: 'application/rss+xml' });
    const closed = await sync([azure]);
    expect(closed.providers[0]).toMatchObject({ outcome: 'synced', closed: 1 });
    const ended = readIndex('azure').incidents[0];
    expect(ended?.status).toBe('resolved');
    expect(ended?.resolvedAt).not.toBeNull();

    server.routes.set('/azure/feed/', {
      body: fixture('azure/feed.xml').replaceAll('Thu, 23 Jul 2026 16:29:09 Z', 'Mon, 03 Aug 2099 08:00:00 Z'),
      contentType: 'application/rss+xml',
    });
    await sync([azure]);
    expect(ids('azure')).toEqual([
      'issues-connecting-to-resources-in-west-us',
      'issues-connecting-to-resources-in-west-us~2099-08-03T08:00',
    ]);
  });

  it('AWS: a UTF-16BE body with a BOM is decoded and the region kept', async () => {
    const text = fixture('aws/currentevents.json');
    server.routes.set('/aws/public/currentevents', {
      body: Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]),
      contentType: 'application/json;charset=utf-16',
    });
    const aws: TestProvider = {
      id: 'aws',
      platform: 'aws',
      url: `${server.url}/aws/health/status`,
      endpoints: [`${server.url}/aws/public/currentevents`],
    };
    expect((await sync([aws])).providers[0]?.outcome).toBe('synced');
    expect(readIndex('aws').incidents[0]).toMatchObject({ regions: ['me-south-1'], status: 'investigating' });
  });

  it('Slack and GCP sync from their default endpoints', async () => {
    server.routes.set('/slack/api/v2.0.0/current', { body: fixture('slack/current-active.json') });
    server.routes.set('/slack/api/v2.0.0/history', { body: fixture('slack/history.json') });
    server.routes.set('/gcp/incidents.json', { body: fixture('gcp/incidents.json') });
    const report = await sync([
      { id: 'slack', platform: 'slack', url: `${server.url}/slack` },
      { id: 'gcp', platform: 'gcp', url: `${server.url}/gcp` },
    ]);
    expect(report.providers.map((entry) => entry.outcome)).toEqual(['synced', 'synced']);
    expect(ids('slack')).toEqual(['1571', '546', '878']);
    expect(ids('gcp')).toEqual(['3BvH3LVGcupoYqV6F4Nw', '41E5S3mkTGDfkZuJZH5k']);
  });
});

describe('the index stays whole', () => {
  it('a damaged index file is moved aside and rebuilt, not silently overwritten', async () => {
    mkdirSync(indexDir, { recursive: true });
    writeFileSync(join(indexDir, 'gh.json'), '{"schemaVersion": 1, "provider": "gh", "incidents": [');
    const gh = statuspage('gh', { body: fixture('statuspage/incidents-github.json') });
    const report = await sync([gh]);
    expect(report.providers[0]?.outcome).toBe('synced');
    expect(report.providers[0]?.warnings.join('\n')).toMatch(/damaged index file.*moved aside and rebuilt/);
    const aside = readdirSync(indexDir).filter((name) => name.startsWith('gh.json.damaged-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(indexDir, aside[0] as string), 'utf8')).toContain('"incidents": [');
    expect(ids('gh')).toContain('69sb0f8lydp4');
  });

  it('two syncs at once both finish and leave a valid index', async () => {
    const gh = statuspage('gh', { body: fixture('statuspage/incidents-github.json'), delayMs: 100 });
    const catalog = testCatalog([], { extra: [gh] });
    const run = () => runSync({ indexDir, catalog, providers: ['gh'], http: FAST, lockWaitMs: 10_000 });
    const [a, b] = await Promise.all([run(), run()]);
    expect([a.providers[0]?.outcome, b.providers[0]?.outcome].sort()).toEqual(['synced', 'unchanged']);
    expect(ids('gh')).toEqual(['69sb0f8lydp4', 'd8x1kq2n5z7w']);
    expect(readdirSync(indexDir).filter((name) => name.startsWith('.'))).toEqual([]);
  });
});
