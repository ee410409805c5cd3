// Each document shape, three or more fixtures each: windows to the minute, provider, components, ids.
import { describe, expect, it } from 'vitest';
import { readDocument } from '../../../src/incidents/import/index.js';
import { replayWindow } from '../../../src/replay.js';
import { fixture, importFixture } from '../../helpers/import-fixture.js';

describe('Statuspage incident JSON', () => {
  it('reads one incident with its page, components and the impact stated in an update body', () => {
    const [incident] = importFixture('statuspage/incident-single.json');
    expect(incident).toMatchObject({
      provider: 'twingate',
      id: 'x8k2m4q9w1zt',
      status: 'postmortem',
      impact: 'major',
      startedAt: '2021-08-10T20:00:41Z',
      resolvedAt: '2021-08-10T21:24:05Z',
      components: ['Controller'],
    });
    expect(incident?.impactWindow).toMatchObject({ from: '2021-08-10T19:39:00Z', to: '2021-08-10T19:47:00Z' });
    expect(replayWindow(incident!)).toEqual({ from: '2021-08-10T19:39:00Z', to: '2021-08-10T21:24:05Z' });
    expect(incident?.updates[0]?.body).toBe(
      'Controller availability dropped.\nThe problem began at 19:39 UTC and continued until 19:47 UTC.',
    );
  });

  it('reads incidents.json with offset timestamps and an open incident', () => {
    const incidents = importFixture('statuspage/incidents-list-offsets.json');
    expect(
      incidents.map((incident) => [incident.provider, incident.id, incident.startedAt, incident.resolvedAt]),
    ).toEqual([
      ['github', 'gh0offset01', '2019-02-20T18:00:19Z', '2019-02-20T19:10:02Z'],
      ['github', 'gh0open0002', '2019-02-21T06:30:00Z', null],
    ]);
    expect(incidents[1]?.components).toEqual(['Actions']);
  });

  it('reads a bare scheduled maintenance as maintenance', () => {
    const [incident] = importFixture('statuspage/incident-bare-maintenance.json');
    expect(incident).toMatchObject({
      provider: 'ruvna',
      kind: 'maintenance',
      status: 'completed',
      startedAt: '2020-10-01T02:00:00Z',
      resolvedAt: '2020-10-01T03:00:00Z',
      components: ['Ruvna Web App'],
    });
  });
});

describe('history feeds', () => {
  it('infers years across New Year from the entry date', () => {
    const [newYear, december] = importFixture('feed/history-year-boundary.atom');
    expect(newYear).toMatchObject({
      provider: 'twingate',
      id: 'nye2022abcde',
      startedAt: '2022-12-31T23:50:00Z',
      resolvedAt: '2023-01-01T00:40:00Z',
      status: 'resolved',
    });
    // "Drops began at 23:41 UTC" sits in an update posted at 23:50 on Dec 31.
    expect(replayWindow(newYear!)).toEqual({ from: '2022-12-31T23:41:00Z', to: '2023-01-01T00:40:00Z' });
    expect(december).toMatchObject({
      id: 'dec26late001',
      startedAt: '2022-12-26T14:45:00Z',
      resolvedAt: '2022-12-26T15:20:00Z',
    });
  });

  it('reads RSS items with their status labels', () => {
    const [incident] = importFixture('feed/history.rss');
    expect(incident).toMatchObject({
      provider: 'github',
      id: 'rss0webhook1',
      url: 'https://www.githubstatus.com/incidents/rss0webhook1',
      startedAt: '2022-03-16T18:10:00Z',
      resolvedAt: '2022-03-16T19:46:00Z',
    });
    expect(incident?.updates.map((update) => update.status)).toEqual(['investigating', 'update', 'resolved']);
    expect(replayWindow(incident!).from).toBe('2022-03-16T17:58:00Z');
  });

  it('imports an entry whose updates carry no time as its whole day, with a warning and no invented times', () => {
    const [incident] = importFixture('feed/history-unstamped.atom');
    expect(incident).toMatchObject({
      provider: 'trello',
      id: 'leapday0001',
      startedAt: '2024-02-29T00:00:00Z',
      resolvedAt: '2024-03-01T00:00:00Z',
      updates: [],
    });
    expect(incident?.conflicts).toEqual([
      '2 update(s) in the feed entry carry no time (resolved, investigating) and were left out',
      'noTimes: the document gives the date 2024-02-29 but no times; the window is that whole UTC day',
    ]);
  });

  it('converts PDT and PST stamps for their dates', () => {
    const [summer, winter] = importFixture('feed/history-pacific.atom');
    expect([summer?.startedAt, summer?.resolvedAt]).toEqual(['2021-07-15T17:00:00Z', '2021-07-15T18:30:00Z']);
    expect([winter?.startedAt, winter?.resolvedAt]).toEqual(['2021-12-01T18:00:00Z', '2021-12-01T18:45:00Z']);
  });
});

describe('incidentlib records', () => {
  it('reads status posts and an EDT window from English prose', () => {
    const [ruvna] = importFixture('incidentlib/records-english-posts.json');
    expect(ruvna).toMatchObject({
      provider: 'ruvna',
      id: 'IL-9002',
      startedAt: '2020-09-08T11:07:00Z',
      resolvedAt: '2020-09-08T13:01:00Z',
      components: ['Ruvna Web App'],
    });
    expect(ruvna?.impactWindow).toMatchObject({ from: '2020-09-08T11:10:00Z', to: '2020-09-08T12:24:00Z' });
    // resolved_after 1h 14m is exactly 7:10 → 8:24 AM EDT.
    expect(ruvna?.conflicts?.some((c) => c.startsWith('stated duration'))).toBe(false);
  });

  it('flags a resolved_after that fits no window', () => {
    const [, northwind] = importFixture('incidentlib/records-english-posts.json');
    expect(replayWindow(northwind!)).toEqual({ from: '2023-02-10T14:00:00Z', to: '2023-02-10T14:20:00Z' });
    expect(northwind?.conflicts).toContain(
      'stated duration 45m ("timeline.resolved_after: 45m") fits none of the document\'s windows: impact 14:00–14:20 UTC is 20m, replay 14:00–14:20 UTC is 20m',
    );
  });

  it('imports a record with a date and no times as that whole day, with a warning and no invented times', () => {
    const [incident] = importFixture('incidentlib/record-no-times.json');
    expect(incident).toMatchObject({
      startedAt: '2022-03-04T00:00:00Z',
      resolvedAt: '2022-03-05T00:00:00Z',
      updates: [],
    });
    expect(incident?.impactWindow).toBeUndefined();
    expect(incident?.conflicts?.[0]).toMatch(/^noTimes: the document gives the date 2022-03-04 but no times/);
  });
});

describe('incident pages', () => {
  it('reads a status page copied from the browser, stamps after each update', () => {
    const [incident] = importFixture('text/statuspage-page-copy.txt');
    expect(incident).toMatchObject({
      provider: 'github',
      title: 'Incident with Actions and Webhooks',
      components: ['Actions', 'Webhooks'],
      startedAt: '2022-04-05T14:05:00Z',
      resolvedAt: '2022-04-05T15:02:00Z',
    });
    expect(incident?.updates.map((update) => `${update.at.slice(11, 16)} ${update.status}`)).toEqual([
      '14:05 investigating',
      '14:31 monitoring',
      '15:02 resolved',
    ]);
    expect(replayWindow(incident!)).toEqual({ from: '2022-04-05T13:52:00Z', to: '2022-04-05T15:02:00Z' });
  });

  it('reports an impact that ends before it begins instead of recording a window', () => {
    const [incident] = importFixture('text/impact-ends-before-it-begins.md');
    expect(incident?.impactWindow).toBeUndefined();
    expect(incident?.conflicts).toContain(
      'the text has impact ending at 2021-10-12 14:20 UTC ("Service was restored at 14:20 UTC.") before it began at 2021-10-12 14:40 UTC ("Errors began at 14:40 UTC according to our logs."); no impact window recorded',
    );
    expect(replayWindow(incident!)).toEqual({ from: '2021-10-12T14:10:00Z', to: '2021-10-12T15:00:00Z' });
  });

  it('reads a window across the spring-forward change in ET', () => {
    const [incident] = importFixture('text/dst-spring-forward.md');
    // 1:40 AM is still EST (UTC-5), 3:20 AM already EDT (UTC-4): 40 minutes, not 1h 40m.
    expect(incident?.impactWindow).toMatchObject({ from: '2021-03-14T06:40:00Z', to: '2021-03-14T07:20:00Z' });
    expect(replayWindow(incident!)).toEqual({ from: '2021-03-14T06:40:00Z', to: '2021-03-14T07:25:00Z' });
  });

  it('reads a window across the fall-back change in PT', () => {
    const [incident] = importFixture('text/dst-fall-back-pt.txt');
    expect(incident?.impactWindow).toMatchObject({ from: '2021-11-07T07:50:00Z', to: '2021-11-07T10:15:00Z' });
  });

  it('imports a page with a date and no times as that whole day, with a warning', () => {
    const [incident] = importFixture('text/no-times.txt');
    expect(incident).toMatchObject({
      provider: 'northwind',
      startedAt: '2022-03-04T00:00:00Z',
      resolvedAt: '2022-03-05T00:00:00Z',
      updates: [],
    });
    expect(incident?.conflicts?.[0]).toMatch(/^noTimes:/);
  });

  it('strips scripts, styles and comments from HTML and never keeps their text', () => {
    const [incident] = importFixture('text/page-with-script.html');
    expect(incident).toMatchObject({
      provider: 'northwind',
      title: 'Northwind Platform - Elevated errors on the ingress',
      startedAt: '2023-05-02T21:12:00Z',
      resolvedAt: '2023-05-02T21:40:00Z',
    });
    expect(replayWindow(incident!)).toEqual({ from: '2023-05-02T21:05:00Z', to: '2023-05-02T21:40:00Z' });
    const stored = JSON.stringify(incident);
    expect(stored).not.toMatch(/evil|cookie|document\.write|T0[345]:00|23:59/);
    expect(incident?.updates.map((update) => update.at)).toEqual(['2023-05-02T21:12:00Z', '2023-05-02T21:40:00Z']);
  });

  it('detects each shape from its content, not its file name', () => {
    const formats = [
      'statuspage/incident-single.json',
      'feed/history.rss',
      'feed/history-pacific.atom',
      'incidentlib/twingate-hour-offset.json',
      'text/archive-edt-prose.txt',
      'text/page-with-script.html',
    ].map((path) => readDocument(fixture(path)).drafts[0]?.format);
    expect(formats).toEqual(['statuspage', 'feed', 'feed', 'incidentlib', 'text', 'html']);
  });
});
