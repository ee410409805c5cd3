import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IncidentSchema } from '../../src/incidents/schema.js';
import type { Incident } from '../../src/model.js';
import { finishDraft } from '../../src/readers/finish.js';
import { replayWindow } from '../../src/replay.js';
import {
  parseAwsCurrentEvents as awsCurrentEvents,
  parseAwsRss as awsRss,
  splitServiceKey,
} from '../../src/readers/formats/aws.js';
import { parseAwsStatusData as awsStatusData } from '../../src/readers/formats/aws-status-data.js';
import { parseAzureFeed as azureFeed } from '../../src/readers/formats/azure.js';
import { parseBetterStack as betterStack } from '../../src/readers/formats/betterstack.js';
import { parseGenericFeed as genericFeed } from '../../src/readers/formats/feed.js';
import { parseFireHydrant as fireHydrant } from '../../src/readers/formats/firehydrant.js';
import { parseGcp as gcp } from '../../src/readers/formats/gcp.js';
import { parseHeroku as heroku } from '../../src/readers/formats/heroku.js';
import { parseIncidentIo as incidentIo } from '../../src/readers/formats/incidentio.js';
import { parseInstatus as instatus } from '../../src/readers/formats/instatus.js';
import { parseSlack as slack } from '../../src/readers/formats/slack.js';
import { parseStatusIo as statusIo } from '../../src/readers/formats/statusio.js';
import { parseStatuspage as statuspage } from '../../src/readers/formats/statuspage.js';
import { parseStatuspageFeed as statuspageFeed } from '../../src/readers/formats/statuspage-feed.js';
import { machineTime as toIso } from '../../src/readers/time/machine.js';
import { describeProblem, type Reader, type ReaderContext, ReaderError } from '../../src/readers/types.js';
import { decodeBody } from '../../src/sync/decode.js';

/** What sync makes of a body: each draft finished for the provider, each problem located. */
const as = (reader: Reader) => (text: string, context: ReaderContext) => {
  const result = reader(text, context);
  const incidents: Incident[] = [];
  const problems = result.problems.map((problem) => describeProblem(context.source, problem));
  for (const draft of result.drafts) {
    const finished = finishDraft(draft, { provider: 'p', source: context.source, pageUrl: context.pageUrl });
    if ('provider' in finished) incidents.push(finished);
    else problems.push(describeProblem(context.source, finished));
  }
  return { ...result, incidents, problems };
};
const parseAwsCurrentEvents = as(awsCurrentEvents);
const parseAwsRss = as(awsRss);
const parseAwsStatusData = as(awsStatusData);
const parseAzureFeed = as(azureFeed);
const parseBetterStack = as(betterStack);
const parseGenericFeed = as(genericFeed);
const parseFireHydrant = as(fireHydrant);
const parseGcp = as(gcp);
const parseHeroku = as(heroku);
const parseIncidentIo = as(incidentIo);
const parseInstatus = as(instatus);
const parseSlack = as(slack);
const parseStatusIo = as(statusIo);
const parseStatuspage = as(statuspage);
const parseStatuspageFeed = as(statuspageFeed);
const AdapterError = ReaderError;

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'sync');
const fixture = (path: string) => readFileSync(join(FIXTURES, path), 'utf8');
const context = (
  source: string,
  pageUrl: string,
  names: Record<string, string> = {},
  regions?: string[],
): ReaderContext => ({
  source,
  pageUrl,
  componentNames: new Map(Object.entries(names)),
  ...(regions ? { regions: new Set(regions) } : {}),
});
const byId = (incidents: Incident[], id: string) => {
  const found = incidents.find((incident) => incident.id === id);
  if (!found) throw new Error(`no incident ${id} in ${incidents.map((incident) => incident.id).join(', ')}`);
  return found;
};
/** Every adapter's output must be storable as is. */
const valid = (incidents: Incident[]) => {
  for (const incident of incidents) expect(IncidentSchema.safeParse(incident).success, incident.id).toBe(true);
  return incidents;
};

describe('time dialects', () => {
  it('reads offsets, RFC 822 zone names, a bare Z, and refuses zoneless times', () => {
    expect(toIso('2019-02-20T12:00:19.418-06:00')).toBe('2019-02-20T18:00:19Z');
    expect(toIso('Fri, 10 Feb 2023 15:48:00 PST')).toBe('2023-02-10T23:48:00Z');
    expect(toIso('Sat, 09 May 2020 21:52:26 PDT')).toBe('2020-05-10T04:52:26Z');
    expect(toIso('Thu, 23 Jul 2026 16:29:09 Z')).toBe('2026-07-23T16:29:09Z');
    expect(toIso('Wed, 16 Mar 2022 19:46:00 +0000')).toBe('2022-03-16T19:46:00Z');
    expect(toIso('Sat Jun 11 2022 18:55:50 GMT+0200 (Central European Summer Time)')).toBe('2022-06-11T16:55:50Z');
    expect(toIso('2026-07-14 17:00:00')).toBeUndefined();
    expect(toIso('yesterday')).toBeUndefined();
  });
});

describe('Statuspage v2', () => {
  const gh = context('https://www.githubstatus.com/api/v2/incidents.json', 'https://www.githubstatus.com', {
    br0l2tvcx85d: 'Actions (catalog name)',
  });

  it('orders newest-first updates oldest first, joins components by id, and reads offset timestamps as UTC', () => {
    const { incidents, problems } = parseStatuspage(fixture('statuspage/incidents-github.json'), gh);
    valid(incidents);
    expect(problems).toEqual([]);
    const pages = byId(incidents, '69sb0f8lydp4');
    expect(pages.updates.map((update) => update.at)).toEqual([
      '2024-09-16T21:31:02Z',
      '2024-09-16T21:53:48Z',
      '2024-09-16T22:08:39Z',
    ]);
    expect(pages.components).toEqual(['Pages', 'Actions (catalog name)']);
    expect(pages).toMatchObject({
      status: 'resolved',
      impact: 'major',
      kind: 'incident',
      startedAt: '2024-09-16T21:31:02Z',
      resolvedAt: '2024-09-16T22:08:39Z',
      url: 'https://www.githubstatus.com/incidents/69sb0f8lydp4',
    });
    expect(pages.updates[1]?.body).toBe('Jobs are queued for a long time and some fail.\nA mitigation is rolling out.');

    const open = byId(incidents, 'd8x1kq2n5z7w');
    expect(open).toMatchObject({
      status: 'monitoring',
      resolvedAt: null,
      startedAt: '2019-02-20T18:00:19Z',
      components: ['Git Operations'],
    });
    expect(open.updates.every((update) => update.components.length === 0)).toBe(true);
  });

  it('splits an older record that keeps every post in one list into its posts, stamped in the page zone, and ends it at the last', () => {
    const { incidents, problems } = parseStatuspage(
      fixture('statuspage/incident-legacy-list.json'),
      context(
        'https://status.example-hosting.com/api/v2/incidents/lg7h2k9d4m1x.json',
        'https://status.example-hosting.com',
      ),
    );
    expect(problems).toEqual([]);
    const [legacy] = valid(incidents);
    // The stamps carry no zone; the record's own first-post time (09:12:30-07:00) says they are Pacific.
    expect(legacy?.updates.map((update) => [update.at, update.status])).toEqual([
      ['2017-06-14T16:12:30Z', 'update'],
      ['2017-06-14T16:48:02Z', 'update'],
      ['2017-06-14T17:31:45Z', 'resolved'],
    ]);
    expect(legacy).toMatchObject({
      startedAt: '2017-06-14T16:12:30Z',
      resolvedAt: '2017-06-14T17:31:45Z',
      components: ['Git Operations'],
    });
    expect(legacy?.updates[1]?.body).toBe('A storage node was removed from rotation; pushes are recovering.');
  });

  it('leaves a one-body record alone when its list stamps do not fit its first-post time', () => {
    const text = fixture('statuspage/incident-legacy-list.json').replaceAll(
      '2017-06-14T09:12:30.000-07:00',
      '2017-06-14T09:12:30.000-07:07',
    );
    const [record] = parseStatuspage(text, context('x.json', 'https://status.example-hosting.com')).incidents;
    expect(record?.updates).toHaveLength(1);
  });

  it('uses the component name from components.json instead of the "<Group> - <Component>" form', () => {
    const components = parseStatuspage(
      fixture('statuspage/components-grouped.json'),
      context('https://www.cloudflarestatus.com/api/v2/components.json', 'https://www.cloudflarestatus.com'),
    );
    expect([...(components.components ?? new Map())]).toEqual([
      ['bty1yz6dhh0v', 'Durable Objects'],
      ['5df6y9z3fsky', 'Workflows'],
    ]);
    const names = Object.fromEntries(components.components ?? []);
    const withNames = parseStatuspage(
      fixture('statuspage/incidents-cloudflare-grouped.json'),
      context('https://www.cloudflarestatus.com/api/v2/incidents.json', 'https://www.cloudflarestatus.com', names),
    );
    expect(byId(withNames.incidents, 'gv29fd076q2t').components).toEqual(['Workflows', 'Durable Objects']);
    const without = parseStatuspage(
      fixture('statuspage/incidents-cloudflare-grouped.json'),
      context('https://www.cloudflarestatus.com/api/v2/incidents.json', 'https://www.cloudflarestatus.com'),
    );
    expect(byId(without.incidents, 'gv29fd076q2t').components).toEqual([
      'Cloudflare Sites and Services - Workflows',
      'Cloudflare Sites and Services - Durable Objects',
    ]);
  });

  it('keeps scheduled maintenance apart, with its scheduled window', () => {
    const { incidents } = parseStatuspage(fixture('statuspage/scheduled-maintenances.json'), gh);
    expect(valid(incidents)[0]).toMatchObject({
      id: 'nwjwwhj118sf',
      kind: 'maintenance',
      impact: 'maintenance',
      status: 'completed',
      startedAt: '2025-05-29T21:30:00Z',
      components: ['Codespaces'],
      impactWindow: {
        from: '2025-05-29T21:30:00Z',
        to: '2025-05-31T04:30:00Z',
        source: 'scheduled maintenance window',
      },
    });
  });

  it('treats incident.io nulls as empty, and refuses a payload of another shape', () => {
    expect(parseStatuspage(fixture('incidentio/incidents-empty-null.json'), gh).incidents).toEqual([]);
    expect(() => parseStatuspage('{"status":{"indicator":"none"}}', gh)).toThrow(AdapterError);
    expect(() => parseStatuspage('{"incidents": [', gh)).toThrow(/JSON ends early/);
  });

  it('marks only unresolved.json as the complete list of open incidents', () => {
    const unresolved = context(
      'https://www.githubstatus.com/api/v2/incidents/unresolved.json',
      'https://www.githubstatus.com',
    );
    expect(parseStatuspage('{"incidents":[]}', unresolved).listsAllOpen).toBe(true);
    expect(parseStatuspage('{"incidents":[]}', gh).listsAllOpen).toBe(false);
  });
});

describe('Statuspage and incident.io feeds', () => {
  it('reads every update of a history.atom entry, taking the API id from the link and the year across new year', () => {
    const { incidents } = parseStatuspageFeed(
      fixture('statuspage/history-redis.atom'),
      context('https://status.redis.com/history.atom', 'https://status.redis.com'),
    );
    valid(incidents);
    const failure = byId(incidents, 'x7hh2m0d9kqa');
    expect(failure.updates.map((update) => [update.at, update.status])).toEqual([
      ['2021-12-31T23:41:00Z', 'investigating'],
      ['2022-01-01T00:20:00Z', 'resolved'],
    ]);
    expect(failure).toMatchObject({
      startedAt: '2021-12-31T23:41:00Z',
      resolvedAt: '2022-01-01T00:20:00Z',
      status: 'resolved',
      kind: 'incident',
    });
    expect(byId(incidents, '1t2rmcmnp7wd')).toMatchObject({ kind: 'maintenance', status: 'completed' });
  });

  it('reads space-padded days in history.rss', () => {
    const { incidents } = parseStatuspageFeed(
      fixture('statuspage/history-github.rss'),
      context('https://www.githubstatus.com/history.rss', 'https://www.githubstatus.com'),
    );
    expect(byId(incidents, 'xdzs70gjthls')).toMatchObject({
      startedAt: '2022-03-09T11:24:00Z',
      resolvedAt: '2022-03-09T17:45:00Z',
    });
  });

  it('reads incident.io entries: ULID from a double-slash link, status and affected components from the HTML', () => {
    const { incidents } = parseStatuspageFeed(
      fixture('incidentio/feed.atom'),
      context('https://status.openai.com/history.atom', 'https://status.openai.com'),
    );
    valid(incidents);
    expect(byId(incidents, '01M1KWEDH417T2CF44YYHZDFCR')).toMatchObject({
      status: 'investigating',
      resolvedAt: null,
      components: ['Search', 'Codex'],
      url: 'https://status.openai.com/incidents/01M1KWEDH417T2CF44YYHZDFCR',
    });
    expect(byId(incidents, '01M1K0T6A2B3C4D5E6F7G8H9J0')).toMatchObject({
      status: 'resolved',
      resolvedAt: '2026-09-02T10:00:00Z',
    });
  });
});

describe('incident.io', () => {
  it('reads the Statuspage-compatible API with ULIDs and null affected_components', () => {
    const { incidents } = parseIncidentIo(
      fixture('incidentio/incidents-compat.json'),
      context('https://status.openai.com/api/v2/incidents.json', 'https://status.openai.com'),
    );
    expect(valid(incidents)[0]).toMatchObject({
      id: '01M36RMC01ZFWQ861WYJKC4XE1',
      status: 'resolved',
      resolvedAt: '2026-09-23T09:54:16Z',
      components: [],
    });
  });

  it('reads the native page data: components joined by id, start from the earliest impact', () => {
    const result = parseIncidentIo(
      fixture('incidentio/proxy-summary.json'),
      context('https://status.openai.com/proxy/status.openai.com', 'https://status.openai.com'),
    );
    expect(result.listsAllOpen).toBe(true);
    expect(valid(result.incidents)[0]).toMatchObject({
      id: '01KKWW47249GJZZP9ZGR1PTHV5',
      status: 'monitoring',
      impact: 'minor',
      components: ['Sign-in'],
      startedAt: '2026-03-17T02:42:00Z',
      resolvedAt: null,
    });
  });
});

describe('other hosted pages', () => {
  it('FireHydrant: payload.json incidents, open until resolved, times from when each note was posted', () => {
    const source = 'https://status.northwind.example/data/payload.json';
    const page = context(source, 'https://status.northwind.example');
    const result = parseFireHydrant(fixture('firehydrant/payload.json'), page);
    expect(result.problems).toEqual([
      `${source}: entry "c0ffee00-0000-4000-8000-000000000000": has no start time; skipped`,
    ]);
    const open = byId(valid(result.incidents), '6f0b2c9e-4d71-4a38-9e25-1b7c8d3f5a60');
    expect(open).toMatchObject({
      status: 'monitoring',
      impact: 'major',
      kind: 'incident',
      components: ['REST API'],
      startedAt: '2026-02-11T09:12:40Z',
      resolvedAt: null,
    });
    // The migration copied every note on 2026-03-23; each is placed when it was first posted, the status taken out.
    expect(open.updates.map((update) => [update.at, update.status, update.body.split('\n')[0]])).toEqual([
      ['2026-02-11T09:14:02Z', 'investigating', 'Some connections to databases in eu-west-1 are refused.'],
      [
        '2026-02-11T10:05:31Z',
        'monitoring',
        'A fix is rolled out to the eu-west-1 gateways and error rates are back to normal. We keep watching them.',
      ],
    ]);
    expect(byId(result.incidents, 'a83e5d17-92c0-4f6b-8d41-7e2b9c0f3a58')).toMatchObject({
      status: 'resolved',
      impact: 'critical',
      components: ['Admin Console'],
      resolvedAt: '2026-01-19T17:22:48Z',
    });
    expect(byId(result.incidents, '3d6f1a8c-0b29-4e75-a413-5c8e7b2d9f06')).toMatchObject({
      kind: 'maintenance',
      status: 'completed',
      impact: 'maintenance',
      components: ['DNS Resolvers'],
    });
    expect([...(result.components ?? [])]).toContainEqual(['5a9e2c44-1b3d-4e8f-8c72-6d1f0a9b3e25', 'REST API']);
    expect(() => parseFireHydrant('{"incidents": []}', page)).toThrow(ReaderError);
  });

  it('Instatus: open incidents from summary.json, none when the keys are left out', () => {
    const source = 'https://status.wistia.com/v3/summary.json';
    const open = parseInstatus(fixture('instatus/summary.json'), context(source, 'https://status.wistia.com'));
    expect(valid(open.incidents)[0]).toMatchObject({
      id: 'cm9k2v0aa001abcde1234wxyz',
      status: 'identified',
      impact: 'major',
      startedAt: '2026-08-04T15:20:00Z',
    });
    expect(open.incidents[1]).toMatchObject({
      id: 'cm9k3a1bb002fghij5678klmn',
      kind: 'maintenance',
      status: 'scheduled',
      impactWindow: {
        from: '2026-08-05T02:00:00Z',
        to: '2026-08-05T03:00:00Z',
        source: 'scheduled maintenance window',
      },
    });
    expect(open.listsAllOpen).toBe(true);
    expect(
      parseInstatus(fixture('instatus/summary-calm.json'), context(source, 'https://status.wistia.com')).incidents,
    ).toEqual([]);
    expect([
      ...(parseInstatus(
        fixture('instatus/components.json'),
        context('https://status.wistia.com/v3/components.json', 'https://status.wistia.com'),
      ).components ?? []),
    ]).toEqual([['cm86c68hh003drlefrrklqlw1', 'Uploads']]);
  });

  it('Better Stack: a resolved report with a null ends_at closes at its last update', () => {
    const { incidents } = parseBetterStack(
      fixture('betterstack/index.json'),
      context('https://status.betterstack.com/index.json', 'https://status.betterstack.com'),
    );
    expect(valid(incidents)[0]).toMatchObject({
      id: '1050825',
      status: 'resolved',
      startedAt: '2026-09-04T13:50:00Z',
      resolvedAt: '2026-09-04T21:10:00Z',
      components: ['Telemetry ingestion (Europe)'],
    });
  });

  it('status.io: open incidents and maintenance, components joined by id', () => {
    const result = parseStatusIo(
      fixture('statusio/status-incident.json'),
      context('https://api.status.io/1.0/status/5b36dc6502d06804c08349f7', 'https://status.gitlab.com'),
    );
    valid(result.incidents);
    expect(byId(result.incidents, '5f52b8074ef75804bc7d2c3e')).toMatchObject({
      title: '500 Error - User Notification Settings',
      status: 'identified',
      impact: 'major',
      components: ['Website'],
      resolvedAt: null,
    });
    expect(byId(result.incidents, '5f4e8b7f2250a004bc3453da')).toMatchObject({
      kind: 'maintenance',
      status: 'in_progress',
      startedAt: '2020-09-02T17:55:00Z',
    });
    expect(result.listsAllOpen).toBe(true);
  });
});

describe('big clouds', () => {
  it('GCP: string ids, open while end is empty, products not service_name, and global means every region', () => {
    const { incidents } = parseGcp(
      fixture('gcp/incidents.json'),
      context('https://status.cloud.google.com/incidents.json', 'https://status.cloud.google.com'),
    );
    valid(incidents);
    expect(byId(incidents, '3BvH3LVGcupoYqV6F4Nw')).toMatchObject({
      status: 'resolved',
      resolvedAt: '2026-07-16T12:25:00Z',
      components: ['Bare Metal Solution', 'Google Cloud NetApp Volumes', 'VMWare engine'],
      regions: ['europe-west4'],
      url: 'https://status.cloud.google.com/incidents/3BvH3LVGcupoYqV6F4Nw',
    });
    expect(byId(incidents, '41E5S3mkTGDfkZuJZH5k')).toMatchObject({
      status: 'investigating',
      resolvedAt: null,
      regions: [],
    });
    expect(() =>
      parseGcp(
        '{"incidents":[]}',
        context('https://status.cloud.google.com/incidents.json', 'https://status.cloud.google.com'),
      ),
    ).toThrow(/expected the incidents.json array/);
  });

  it('AWS currentevents: UTF-16BE with a BOM, region from the arn, services without region suffix, epoch seconds', () => {
    const text = fixture('aws/currentevents.json');
    const bytes = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
    const decoded = decodeBody(bytes, 'application/json;charset=utf-16');
    const { incidents, listsAllOpen } = parseAwsCurrentEvents(
      decoded,
      context('https://health.aws.amazon.com/public/currentevents', 'https://health.aws.amazon.com/health/status', {
        s3: 'Amazon S3',
      }),
    );
    expect(listsAllOpen).toBe(true);
    expect(valid(incidents)[0]).toMatchObject({
      title: 'Increased Connectivity Issues and API Error Rates',
      regions: ['me-south-1'],
      components: ['Amazon S3', 'Amazon Elastic Compute Cloud', 'AWS Amplify'],
      startedAt: '2026-03-02T05:56:27Z',
      status: 'investigating',
      impact: 'major',
    });
    expect(splitServiceKey('multipleservices-us-gov-west-1')).toEqual({
      service: 'multipleservices',
      region: 'us-gov-west-1',
    });
    expect(splitServiceKey('amplify')).toEqual({ service: 'amplify' });
  });

  it('AWS dashboard data before 2023: every post of a description dated forward across midnight, the stated window read from the last', () => {
    const { incidents, problems } = parseAwsStatusData(
      fixture('aws/status-data.json'),
      context('https://status.aws.amazon.com/data.json', 'https://health.aws.amazon.com/health/status'),
    );
    expect(problems).toEqual([]);
    valid(incidents);
    // 11:14 PM PST on 10 November, then 11:52 PM, then 12:31 AM: the last post falls on the next day.
    const sqs = byId(incidents, 'sqs-us-west-2_1636614840');
    expect(sqs.updates.map((update) => update.at)).toEqual([
      '2021-11-11T07:14:00Z',
      '2021-11-11T07:52:00Z',
      '2021-11-11T08:31:00Z',
    ]);
    expect(sqs).toMatchObject({
      title: 'Increased API Latencies',
      status: 'resolved',
      components: ['Amazon Simple Queue Service'],
      regions: ['us-west-2'],
      startedAt: '2021-11-11T07:14:00Z',
      resolvedAt: '2021-11-11T08:31:00Z',
      impactWindow: expect.objectContaining({ from: '2021-11-11T06:47:00Z', to: '2021-11-11T08:20:00Z' }),
    });
    // EventBridge in the Kinesis outage (25 Nov 2020): the event is dated 7:44 AM PST, its first post is stamped 6:45 AM
    // PST. Dated forward from the event, that post (and every one after it) fell a day late.
    const events = byId(incidents, 'events-us-east-1_1606319040');
    expect(events.updates.map((update) => update.at)).toEqual([
      '2020-11-25T14:45:00Z',
      '2020-11-25T18:44:00Z',
      '2020-11-26T00:04:00Z',
      '2020-11-26T03:33:00Z',
      '2020-11-26T05:52:00Z',
    ]);
    expect(events).toMatchObject({
      startedAt: '2020-11-25T14:45:00Z',
      resolvedAt: '2020-11-26T05:52:00Z',
      impactWindow: expect.objectContaining({ from: '2020-11-25T13:15:00Z', to: '2020-11-26T05:30:00Z' }),
    });
    expect(replayWindow(events)).toEqual({ from: '2020-11-25T13:15:00Z', to: '2020-11-26T05:52:00Z' });
    // An event dated 9 Oct 2019 00:04 UTC whose posts are stamped Oct 7, 7:00 PM PDT: the posts' dates stand, the start
    // is the first post, and the stated window is read on their day.
    expect(byId(incidents, 'backup-eu-central-1_1570579440')).toMatchObject({
      startedAt: '2019-10-08T02:00:00Z',
      resolvedAt: '2019-10-08T05:09:00Z',
      impactWindow: expect.objectContaining({ from: '2019-10-08T00:04:00Z', to: '2019-10-08T04:17:00Z' }),
    });
    expect(byId(incidents, 'lambda-us-east-1_1638895020')).toMatchObject({
      status: 'investigating',
      resolvedAt: null,
      impact: 'major',
    });
  });

  it('AWS RSS: one item per update, chained per service-region, PST dates', () => {
    const { incidents } = parseAwsRss(
      fixture('aws/all.rss'),
      context('https://status.aws.amazon.com/rss/all.rss', 'https://health.aws.amazon.com/health/status'),
    );
    valid(incidents);
    const rds = byId(incidents, 'rds-us-east-1_1676059500');
    expect(rds).toMatchObject({
      status: 'resolved',
      regions: ['us-east-1'],
      startedAt: '2023-02-10T20:05:00Z',
      resolvedAt: '2023-02-10T23:48:00Z',
      title: 'Connectivity issues affecting some instances',
    });
    expect(rds.updates).toHaveLength(2);
    expect(byId(incidents, 'billingconsole_1675376364')).toMatchObject({ regions: [], resolvedAt: null });
    const ecs = parseAwsRss(
      fixture('aws/ecs-us-west-1.rss'),
      context('https://status.aws.amazon.com/rss/ecs-us-west-1.rss', 'https://health.aws.amazon.com/health/status'),
    );
    expect(ecs.incidents[0]).toMatchObject({
      components: ['Amazon Elastic Container Service'],
      regions: ['us-west-1'],
      startedAt: '2020-05-10T04:52:26Z',
    });
  });

  it('Azure: regions and services split out of the categories, trailing spaces trimmed', () => {
    const result = parseAzureFeed(
      fixture('azure/feed.xml'),
      context('https://azure.status.microsoft/en-us/status/feed/', 'https://azure.status.microsoft/en-us/status', {}, [
        'westus',
        'eastus',
      ]),
    );
    expect(result.listsAllOpen).toBe(true);
    expect(valid(result.incidents)[0]).toMatchObject({
      id: 'issues-connecting-to-resources-in-west-us',
      title: 'Issues connecting to resources in West US',
      regions: ['westus'],
      components: ['Application Gateway', 'Azure Kubernetes Service (AKS)', 'VPN Gateway'],
      startedAt: '2026-07-23T16:29:09Z',
    });
    expect(
      parseAzureFeed(
        fixture('azure/feed-empty.xml'),
        context('https://azure.status.microsoft/en-us/status/feed/', 'https://azure.status.microsoft'),
      ).incidents,
    ).toEqual([]);
  });
});

describe('Slack and Heroku', () => {
  it('Slack: number and string ids, -07:00 offsets, HTML notes', () => {
    const history = parseSlack(
      fixture('slack/history.json'),
      context('https://slack-status.com/api/v2.0.0/history', 'https://slack-status.com'),
    );
    valid(history.incidents);
    expect(history.listsAllOpen).toBe(false);
    expect(byId(history.incidents, '1571')).toMatchObject({
      startedAt: '2026-06-26T09:12:20Z',
      resolvedAt: '2026-06-26T10:09:39Z',
      title: 'Chat functionality unavailable on Slack Help page',
    });
    expect(byId(history.incidents, '1571').updates[0]?.body).toBe(
      'Users cannot reach Slack Support via the Chat option on the Help page.',
    );
    expect(byId(history.incidents, '546')).toMatchObject({
      impact: 'major',
      components: ['Messaging', 'Connectivity'],
    });
    const current = parseSlack(
      fixture('slack/current-active.json'),
      context('https://slack-status.com/api/v2.0.0/current', 'https://slack-status.com'),
    );
    expect(current.listsAllOpen).toBe(true);
    expect(current.incidents[0]).toMatchObject({
      id: '878',
      status: 'investigating',
      resolvedAt: null,
      components: ['Notifications'],
    });
  });

  it('Heroku: open incident impact from the colours; blue scheduled items are maintenance', () => {
    const incident = parseHeroku(
      fixture('heroku/current-status-incident.json'),
      context('https://status.heroku.com/api/v4/current-status', 'https://status.heroku.com'),
    );
    expect(valid(incident.incidents)[0]).toMatchObject({
      id: '1918',
      status: 'investigating',
      impact: 'minor',
      resolvedAt: null,
      kind: 'incident',
    });
    const maintenance = parseHeroku(
      fixture('heroku/current-status-maintenance.json'),
      context('https://status.heroku.com/api/v4/current-status', 'https://status.heroku.com'),
    );
    expect(valid(maintenance.incidents)[0]).toMatchObject({
      id: '2120',
      kind: 'maintenance',
      status: 'completed',
      resolvedAt: '2020-11-09T19:47:23Z',
    });
  });
});

describe('untrusted text', () => {
  it('strips terminal escapes, refuses javascript: links and falls back to the page URL', () => {
    const { incidents } = parseGenericFeed(
      fixture('feed/generic.rss'),
      context('https://status.example.com/feed.rss', 'https://status.example.com/'),
    );
    valid(incidents);
    const login = byId(incidents, 'dash-login-0812');
    expect(login.url).toBe('https://status.example.com/');
    expect(login.updates[0]?.body).not.toMatch(/\u001b/);
    expect(login.updates[0]?.body).toContain('when logging in');
    expect(byId(incidents, 'https://status.example.com/incidents/2041')).toMatchObject({
      status: 'resolved',
      startedAt: '2026-08-11T07:12:00Z',
      components: ['API'],
    });
  });

  it('caps titles and bodies and drops bidi overrides', () => {
    const long = 'x'.repeat(10_000);
    const payload = JSON.stringify({
      incidents: [
        {
          id: 'a1',
          name: `\u202eevil${long}`,
          status: 'investigating',
          impact: 'minor',
          started_at: '2026-01-01T00:00:00Z',
          incident_updates: [{ body: long, status: 'investigating', display_at: '2026-01-01T00:00:00Z' }],
        },
      ],
    });
    const [incident] = parseStatuspage(
      payload,
      context('https://s.example.com/api/v2/incidents.json', 'https://s.example.com'),
    ).incidents;
    expect(incident?.title.startsWith('evil')).toBe(true);
    expect(incident?.title.length).toBeLessThanOrEqual(300);
    expect(incident?.updates[0]?.body.length).toBeLessThanOrEqual(4000);
  });
});
