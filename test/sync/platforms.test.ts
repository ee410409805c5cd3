// Every platform end to end: test catalog served from loopback pages → sync → index → check's findings.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/check.js';
import type { Catalog } from '../../src/catalog/loader.js';
import { IndexFileSchema } from '../../src/incidents/schema.js';
import { runSync, type SyncReport } from '../../src/sync/sync.js';
import { tempDir, testCatalog } from '../helpers/catalog.js';
import { startStatusServer, type StatusServer } from '../helpers/status-server.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'sync');
const fixture = (path: string) => readFileSync(join(FIXTURES, path), 'utf8');
const json = (path: string) => ({ body: fixture(path) });
const xml = (path: string, contentType = 'application/rss+xml') => ({ body: fixture(path), contentType });

let server: StatusServer;
let indexDir: string;
let catalog: Catalog;
let report: SyncReport;
const PLATFORM_PROVIDERS = [
  'aws',
  'azure',
  'better-stack',
  'cloudflare',
  'example-rss',
  'github',
  'gitlab',
  'google-cloud',
  'heroku',
  'openai',
  'redis-cloud',
  'slack',
  'wistia',
];

beforeAll(async () => {
  const awsText = fixture('aws/currentevents.json');
  server = await startStatusServer({
    '/github/api/v2/incidents.json': json('statuspage/incidents-github.json'),
    '/github/api/v2/scheduled-maintenances.json': json('statuspage/scheduled-maintenances.json'),
    '/github/history.rss': xml('statuspage/history-github.rss'),
    '/cloudflare/api/v2/components.json': json('statuspage/components-grouped.json'),
    '/cloudflare/api/v2/incidents.json': json('statuspage/incidents-cloudflare-grouped.json'),
    '/cloudflare/history.atom': xml('statuspage/history-redis.atom', 'application/atom+xml'),
    '/openai/api/v2/incidents.json': json('incidentio/incidents-compat.json'),
    '/openai/feed.atom': xml('incidentio/feed.atom', 'application/atom+xml'),
    '/wistia/v3/summary.json': json('instatus/summary.json'),
    '/wistia/v3/components.json': json('instatus/components.json'),
    '/better-stack/index.json': json('betterstack/index.json'),
    '/gitlab/1.0/status/5b36dc6502d06804c08349f7': json('statusio/status-incident.json'),
    '/google-cloud/incidents.json': json('gcp/incidents.json'),
    '/aws/public/currentevents': {
      body: Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(awsText, 'utf16le').swap16()]),
      contentType: 'application/json;charset=utf-16',
    },
    '/aws/rss/ecs-us-west-1.rss': xml('aws/ecs-us-west-1.rss'),
    '/azure/en-us/status/feed/': xml('azure/feed.xml'),
    '/slack/api/v2.0.0/current': json('slack/current-active.json'),
    '/slack/api/v2.0.0/history': json('slack/history.json'),
    '/heroku/api/v4/current-status': json('heroku/current-status-incident.json'),
    '/example-rss/feed.rss': xml('feed/generic.rss'),
    '/redis-cloud/data/payload.json': json('firehydrant/payload.json'),
  });
  catalog = testCatalog(PLATFORM_PROVIDERS, { statusBase: server.url });
  indexDir = tempDir();
  report = await runSync({ indexDir, catalog, providers: [...catalog.providers.keys()], lockWaitMs: 5_000 });
});
afterAll(async () => {
  await server.close();
});

const incidents = (provider: string) =>
  IndexFileSchema.parse(JSON.parse(readFileSync(join(indexDir, `${provider}.json`), 'utf8'))).incidents;

describe('sync across every platform', () => {
  it('syncs each provider with no failures', () => {
    expect(Object.fromEntries(report.providers.map((entry) => [entry.provider, entry.outcome]))).toEqual({
      aws: 'synced',
      azure: 'synced',
      'better-stack': 'synced',
      cloudflare: 'synced',
      'example-rss': 'synced',
      github: 'synced',
      gitlab: 'synced',
      'google-cloud': 'synced',
      heroku: 'synced',
      openai: 'synced',
      'redis-cloud': 'synced',
      slack: 'synced',
      wistia: 'synced',
    });
  });

  it('keeps API and feed incidents apart by id, the API one winning where both have it', () => {
    expect(
      incidents('github')
        .map((incident) => incident.id)
        .sort(),
    ).toEqual(['69sb0f8lydp4', 'd8x1kq2n5z7w', 'nwjwwhj118sf', 'xdzs70gjthls']);
    expect(
      incidents('openai')
        .map((incident) => incident.id)
        .sort(),
    ).toEqual(['01M1K0T6A2B3C4D5E6F7G8H9J0', '01M1KWEDH417T2CF44YYHZDFCR', '01M36RMC01ZFWQ861WYJKC4XE1']);
    const durable = incidents('cloudflare').find((incident) => incident.id === 'gv29fd076q2t');
    expect(durable?.components).toEqual(['Workflows', 'Durable Objects']);
  });

  it('keeps the regions the platforms give', () => {
    expect(
      incidents('aws')
        .map((incident) => incident.regions)
        .sort(),
    ).toEqual([['me-south-1'], ['us-west-1']]);
    expect(incidents('aws').find((incident) => incident.regions[0] === 'me-south-1')?.components).toContain(
      'Amazon Simple Storage Service',
    );
    expect(incidents('azure')[0]?.regions).toEqual(['westus']);
    expect(incidents('google-cloud').find((incident) => incident.id === '3BvH3LVGcupoYqV6F4Nw')?.regions).toEqual([
      'europe-west4',
    ]);
  });

  it('reads a FireHydrant page from its payload.json, newest first, with the components each incident names', () => {
    expect(incidents('redis-cloud').map((incident) => [incident.id.slice(0, 8), incident.components])).toEqual([
      ['6f0b2c9e', ['REST API']],
      ['a83e5d17', ['Admin Console']],
      ['3d6f1a8c', ['DNS Resolvers']],
    ]);
  });

  it('feeds check: a stack using GitHub Actions gets the Actions incident with its replay window, maintenance left out', async () => {
    const project = tempDir('downstack-project-');
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'ci-bot', dependencies: { '@actions/core': '^1.10.0' } }),
    );
    const check = await runCheck({
      paths: [project],
      indexDir,
      catalog,
      since: new Date('2024-09-16T00:00:00Z'),
      until: new Date('2025-06-30T00:00:00Z'),
      now: new Date('2025-07-01T00:00:00Z'),
      // What sync stored, as the page gave it: no bundled history under it and no lead before its first post.
      snapshotDir: null,
      leadMinutes: 0,
    });
    expect(check.findings.map((finding) => [finding.incident.id, finding.components, finding.replay])).toEqual([
      ['69sb0f8lydp4', ['Actions'], { from: '2024-09-16T21:31:02Z', to: '2024-09-16T22:08:39Z' }],
    ]);
  });
});
