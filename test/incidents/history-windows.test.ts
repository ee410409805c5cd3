// Replay windows as an on-call engineer would check them against what the provider wrote: write-ups dated on another
// day than their own posts, Google Cloud times read under another day's heading of a long report, and the bundled
// history's hand-checked incidents. Fixtures are written in the shapes the providers publish (a Statuspage incident
// record, an incidents.json item); the sentences are ours, the names and times are the real incidents'.
import { describe, expect, it } from 'vitest';
import type { HistoryRecord } from '../../src/incidents/history.js';
import { titleOf } from '../../src/incidents/history-facts.js';
import type { Incident } from '../../src/model.js';
import { finishDraft } from '../../src/readers/finish.js';
import { parseGcp } from '../../src/readers/formats/gcp.js';
import { parseStatuspage } from '../../src/readers/formats/statuspage.js';
import type { Reader } from '../../src/readers/types.js';
import { replayWindow } from '../../src/replay.js';
import { historyRecords } from '../helpers/history.js';

const DAY_MS = 86_400_000;

function read(reader: Reader, body: unknown, pageUrl: string): Incident {
  const result = reader(JSON.stringify(body), { source: `${pageUrl}/test`, pageUrl, componentNames: new Map() });
  expect(result.problems).toEqual([]);
  const [draft] = result.drafts;
  if (!draft) throw new Error('no draft');
  const incident = finishDraft(draft, { provider: 'p', source: 'test', pageUrl });
  if (!('provider' in incident)) throw new Error(incident.message);
  return incident;
}

/** A GitHub incident record as /api/v2/incidents/{code}.json answers it: posts with their times, newest first. */
function github(code: string, posts: Array<[at: string, status: string, body: string]>): Incident {
  const updates = [...posts].reverse().map(([at, status, body], i) => ({
    id: `${code}${i}`,
    status,
    body,
    created_at: at,
    display_at: at,
    affected_components: null,
  }));
  const first = posts[0]?.[0];
  const last = posts.at(-1)?.[0];
  return read(
    parseStatuspage,
    {
      page: { id: 'kctbh9vrtdwd', name: 'GitHub', url: 'https://www.githubstatus.com', time_zone: 'Etc/UTC' },
      incident: {
        id: code,
        name: 'Incident with Actions',
        status: 'resolved',
        impact: 'minor',
        created_at: first,
        started_at: first,
        resolved_at: last,
        shortlink: `https://stspg.io/${code}`,
        incident_updates: updates,
        components: [],
      },
    },
    'https://www.githubstatus.com',
  );
}

/** A Google Cloud incidents.json item: begin and end as data, updates newest first. */
function gcp(id: string, begin: string, end: string, updates: Array<[when: string, status: string, text: string]>) {
  return read(
    parseGcp,
    [
      {
        id,
        number: '1234567890123456789',
        begin,
        created: updates[0]?.[0],
        end,
        modified: end,
        external_desc: 'Multiple products are affected',
        updates: [...updates].reverse().map(([when, status, text]) => ({
          created: when,
          modified: when,
          when,
          text,
          status,
          affected_locations: [],
        })),
        status_impact: 'SERVICE_DISRUPTION',
        severity: 'high',
        service_key: 'zall',
        service_name: 'Multiple Products',
        affected_products: [{ title: 'Cloud Load Balancing', id: 'ix7u9beT8ivBdjApTif3' }],
        uri: `incidents/${id}`,
        currently_affected_locations: [],
        previously_affected_locations: [],
      },
    ],
    'https://status.cloud.google.com',
  );
}

const window = (incident: Incident) => replayWindow(incident);

describe('a write-up dated on another day than its posts', () => {
  it('is re-dated to the posts by whole days when it states the wrong year (qq1gg4klp5vm, posted 21 Jan 2026)', () => {
    const incident = github('qq1gg4klp5vm', [
      ['2026-01-21T11:33:00Z', 'investigating', 'We are looking into slower Copilot responses.'],
      ['2026-01-21T12:09:00Z', 'identified', 'One model is failing because of its upstream provider.'],
      [
        '2026-01-21T12:38:00Z',
        'resolved',
        'On Jan 21st, 2025, between 11:15 UTC and 13:00 UTC one Copilot model failed most requests.',
      ],
    ]);
    expect(incident.impactWindow).toMatchObject({ from: '2026-01-21T11:15:00Z', to: '2026-01-21T13:00:00Z' });
    expect(window(incident)).toEqual({ from: '2026-01-21T11:15:00Z', to: '2026-01-21T13:00:00Z' });
    expect(incident.conflicts).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/365 days from the status page's posts .*re-dated to 2026-01-21 11:15–13:00 UTC$/),
      ]),
    );
  });

  it('the wrong month (gx7js8bd0jpz: "February 18" in a resolution posted on 18 August 2026)', () => {
    const incident = github('gx7js8bd0jpz', [
      ['2026-08-18T09:36:00Z', 'investigating', 'Some GitHub services are slower than usual.'],
      [
        '2026-08-18T10:23:00Z',
        'resolved',
        'On February 18, 2026, between 05:02 UTC and 11:30 UTC, jobs on larger Actions runners could not start.',
      ],
    ]);
    expect(window(incident)).toEqual({ from: '2026-08-18T05:02:00Z', to: '2026-08-18T11:30:00Z' });
  });

  it('the wrong day (xcn454p4wqtz: "September 26" for posts of 25 September 2025)', () => {
    const incident = github('xcn454p4wqtz', [
      ['2025-09-25T17:00:00Z', 'investigating', 'We are looking into it.'],
      ['2025-09-25T17:06:00Z', 'investigating', 'Some raw file requests fail.'],
      [
        '2025-09-25T17:36:00Z',
        'resolved',
        'On September 26, 2025 between 16:22 UTC and 18:32 UTC raw file access failed for a few repositories.',
      ],
    ]);
    expect(window(incident)).toEqual({ from: '2025-09-25T16:22:00Z', to: '2025-09-25T18:32:00Z' });
  });

  it('keeps an earlier episode the write-up tells next to one near the posts (jbhcrj5xtggx, 9 Jan 2025)', () => {
    const incident = github('jbhcrj5xtggx', [
      ['2025-01-09T17:12:00Z', 'investigating', 'Some Actions jobs are delayed.'],
      [
        '2025-01-09T20:00:00Z',
        'resolved',
        'Between 2025-01-09 16:00 UTC and 20:00 UTC Actions jobs were delayed. There was also an earlier period of impact from 2025-01-08 22:00 UTC to 2025-01-09 4:10 UTC.',
      ],
    ]);
    expect(window(incident)).toEqual({ from: '2025-01-08T22:00:00Z', to: '2025-01-09T20:00:00Z' });
    expect(incident.conflicts?.join('\n') ?? '').not.toMatch(/re-dated|not kept/);
  });

  it('does not keep a window that no whole-day shift puts on the posts and that is too far to be an episode', () => {
    const incident = github('aaaaaaaaaaa1', [
      ['2025-06-10T09:00:00Z', 'investigating', 'We are looking into it.'],
      [
        '2025-06-10T09:40:00Z',
        'resolved',
        'Between 2025-03-02 01:00 UTC and 2025-03-02 02:00 UTC, and between 2025-06-10 08:50 and 09:35 UTC, pushes were slow.',
      ],
    ]);
    expect(window(incident)).toEqual({ from: '2025-06-10T08:50:00Z', to: '2025-06-10T09:40:00Z' });
    expect(incident.conflicts).toEqual(expect.arrayContaining([expect.stringMatching(/too far .*; not kept$/)]));
  });

  it('leaves a retroactive post alone: impact hours before the only post, on the same day', () => {
    const incident = github('aaaaaaaaaaa2', [
      ['2025-10-24T14:17:00Z', 'resolved', 'Between 02:55 and 03:15 UTC on October 24, 2025, some page loads failed.'],
    ]);
    expect(window(incident)).toEqual({ from: '2025-10-24T02:55:00Z', to: '2025-10-24T14:17:00Z' });
  });
});

describe("Google Cloud's begin and end are the window it publishes", () => {
  it("a time under another day's heading of a long report does not start the window early (dS9ps52MUnxQfyDGPfkY, europe-west9)", () => {
    const incident = gcp('dS9ps52MUnxQfyDGPfkY', '2023-04-25T23:46:00+00:00', '2023-04-27T03:00:00+00:00', [
      ['2023-04-26T02:00:05+00:00', 'SERVICE_DISRUPTION', 'Services in europe-west9-a are unavailable.'],
      [
        '2023-05-11T20:00:00+00:00',
        'AVAILABLE',
        [
          'Our report (All Times US/Pacific):',
          '### Tuesday, 25 April 2023',
          '16:46 - Water entered the data center.',
          '### Wednesday, 26 April 2023',
          'Later that day, at 14:42 US/Pacific, IAM served again.',
        ].join('\n'),
      ],
    ]);
    expect(window(incident).from).toBe('2023-04-25T23:46:00Z');
    expect(window(incident).to).toBe('2023-04-27T03:00:00Z');
  });

  it('a report that states the wrong month is re-dated, and the window stays begin to end (UPG5wxRnLGjqqVFMW7Kq, 27 July 2021)', () => {
    const incident = gcp('UPG5wxRnLGjqqVFMW7Kq', '2021-07-27T11:15:00+00:00', '2021-07-28T04:05:00+00:00', [
      ['2021-07-27T14:51:08+00:00', 'SERVICE_DISRUPTION', 'HTTPS load balancing fails for some users in Europe.'],
      ['2021-07-28T04:05:23+00:00', 'AVAILABLE', 'Load balancing works again.'],
      [
        '2021-07-28T15:12:57+00:00',
        'AVAILABLE',
        '(All Times US/Pacific)\nIncident Timeline:\n27 June 2021 04:15 - 05:33\n27 June 2021 06:56 - 07:41',
      ],
    ]);
    expect(window(incident)).toEqual({ from: '2021-07-27T11:15:00Z', to: '2021-07-28T04:05:00Z' });
    expect(incident.conflicts).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/"27 June 2021 06:56 - 07:41"\), too far from the status page's posts .*; not kept$/),
      ]),
    );
  });
});

describe('the bundled history', () => {
  const records = (provider: string) => historyRecords(provider);
  const find = (provider: string, id: string) => records(provider).find((record) => record.id === id) as HistoryRecord;
  const replay = (record: HistoryRecord) =>
    replayWindow({ ...record, provider: 'p', kind: 'incident', updates: [], source: '' } as unknown as Incident);

  it('holds no window that ends before it starts, and no stated window months away from its own posts', () => {
    for (const provider of ['github', 'google-cloud', 'aws', 'azure'])
      for (const record of records(provider)) {
        expect(Date.parse(record.resolvedAt ?? record.startedAt)).toBeGreaterThanOrEqual(Date.parse(record.startedAt));
        const stated = record.impactWindow;
        if (!stated) continue;
        expect(Date.parse(stated.to), `${provider} ${record.id}`).toBeGreaterThanOrEqual(Date.parse(stated.from));
        const posts = [Date.parse(record.startedAt), Date.parse(record.resolvedAt ?? record.startedAt)];
        const gap = Math.max(0, Date.parse(stated.from) - posts[1], posts[0] - Date.parse(stated.to));
        expect(gap, `${provider} ${record.id}: stated ${stated.from}–${stated.to}`).toBeLessThanOrEqual(14 * DAY_MS);
      }
  });

  it('gives the hand-checked incidents the windows their providers wrote', () => {
    // The resolution's own window, moved to the day of the posts.
    expect(replay(find('github', 'gx7js8bd0jpz'))).toEqual({
      from: '2026-08-18T05:02:00Z',
      to: '2026-08-18T11:30:00Z',
    });
    expect(replay(find('github', 'qq1gg4klp5vm'))).toEqual({
      from: '2026-01-21T11:15:00Z',
      to: '2026-01-21T13:00:00Z',
    });
    expect(replay(find('github', 'xcn454p4wqtz'))).toEqual({
      from: '2025-09-25T16:22:00Z',
      to: '2025-09-25T18:32:00Z',
    });
    // begin and end as Google Cloud publishes them.
    expect(replay(find('google-cloud', 'UPG5wxRnLGjqqVFMW7Kq'))).toEqual({
      from: '2021-07-27T11:15:00Z',
      to: '2021-07-28T04:05:00Z',
    });
    expect(replay(find('google-cloud', 'dS9ps52MUnxQfyDGPfkY'))).toEqual({
      from: '2023-04-25T23:46:00Z',
      to: '2023-04-27T03:00:00Z',
    });
    // "Between 5:15 AM and 9:30 PM PST" on 25 November 2020, resolved at 9:52 PM PST.
    expect(replay(find('aws', 'events-us-east-1_1606319040'))).toEqual({
      from: '2020-11-25T13:15:00Z',
      to: '2020-11-26T05:52:00Z',
    });
  });

  it('titles a record without components as a person would', () => {
    const span = { from: '2025-09-25T17:00:00Z', to: '2025-09-25T17:36:00Z' };
    expect(titleOf([], [], 'minor', span)).toBe('Components not named — minor, 36m');
    expect(titleOf([], ['us-east-1'], 'major', span)).toBe('Services in us-east-1 — major, 36m');
    expect(titleOf(['Actions'], ['us-east-1'], 'major', span)).toBe('Actions in us-east-1 — major, 36m');
    expect(records('github').some((record) => /no component named/i.test(record.title))).toBe(false);
  });
});
