// One test per seed document shape: exact UTC windows, and the conflicts the document really has.
import { describe, expect, it } from 'vitest';
import { replayWindow } from '../../../src/replay.js';
import { importFixture } from '../../helpers/import-fixture.js';

describe('seed shapes', () => {
  it('guide page with UTC updates and a postmortem (shape of seed 000): replay 19:39 → 21:24 with conflicts', () => {
    const [incident] = importFixture('text/guide-page-utc-postmortem.txt');
    expect(incident?.provider).toBe('twingate');
    expect(incident?.startedAt).toBe('2021-08-10T20:00:00Z');
    expect(incident?.resolvedAt).toBe('2021-08-10T21:24:00Z');
    expect(incident?.impactWindow).toMatchObject({ from: '2021-08-10T19:39:00Z', to: '2021-08-10T19:47:00Z' });
    expect(replayWindow(incident!)).toEqual({ from: '2021-08-10T19:39:00Z', to: '2021-08-10T21:24:00Z' });
    expect(incident?.components).toEqual(['Controller']);
    // The postmortem two days later is kept but does not stretch the outage.
    expect(incident?.updates.map((update) => update.status)).toEqual([
      'monitoring',
      'monitoring',
      'resolved',
      'postmortem',
    ]);
    const conflicts = incident?.conflicts ?? [];
    expect(
      conflicts.some(
        (c) => c.startsWith('impact began 2021-08-10 19:39 UTC') && c.includes('21m before the first status update'),
      ),
    ).toBe(true);
    expect(conflicts.some((c) => c.includes('stated window 19:45–21:24 UTC') && c.includes('starts 6m after'))).toBe(
      true,
    );
    // 1h 39m is exactly the stated 19:45–21:24, so it is not a conflict.
    expect(conflicts.some((c) => c.startsWith('stated duration'))).toBe(false);
  });

  it('archive page with EDT prose under a UTC heading (shape of seed 001): replay 12:57 → 16:32 UTC', () => {
    const [incident] = importFixture('text/archive-edt-prose.txt');
    expect(incident?.provider).toBe('trello');
    expect(incident?.impactWindow).toMatchObject({ from: '2016-06-28T12:57:00Z', to: '2016-06-28T14:14:00Z' });
    expect(incident?.resolvedAt).toBe('2016-06-28T16:32:00Z');
    expect(replayWindow(incident!)).toEqual({ from: '2016-06-28T12:57:00Z', to: '2016-06-28T16:32:00Z' });
    expect(incident?.updates.map((update) => update.at)).toEqual([
      '2016-06-28T16:00:00Z',
      '2016-06-28T16:10:00Z',
      '2016-06-28T16:13:00Z',
      '2016-06-28T16:32:00Z',
    ]);
    const conflicts = incident?.conflicts ?? [];
    expect(conflicts).toContain('zoneInherited: 9:26am has no time zone; read as EDT like the times written before it');
    expect(
      conflicts.some((c) =>
        c.includes('marked it resolved at 2016-06-28 16:00 UTC but kept posting updates until 2016-06-28 16:32 UTC'),
      ),
    ).toBe(true);
  });

  it('incidentlib record whose posts are an hour off its postmortem (shape of seed 002): replay 20:10 → 21:41', () => {
    const [incident] = importFixture('incidentlib/twingate-hour-offset.json');
    expect(incident?.provider).toBe('twingate');
    expect(incident?.id).toBe('mhs89xs5rhb8');
    expect(incident?.impactWindow).toMatchObject({ from: '2025-03-21T21:10:00Z', to: '2025-03-21T21:41:00Z' });
    expect(incident?.updates.map((update) => `${update.at} ${update.status}`)).toEqual([
      '2025-03-21T20:10:00Z investigating',
      '2025-03-21T20:41:00Z monitoring',
      '2025-03-21T21:13:00Z resolved',
    ]);
    expect(replayWindow(incident!)).toEqual({ from: '2025-03-21T20:10:00Z', to: '2025-03-21T21:41:00Z' });
    expect(
      incident?.conflicts?.some((c) => c.includes('1h after the first status update') && c.includes('wrong time zone')),
    ).toBe(true);
    expect(incident?.upstream).toEqual(['gcp']);
    expect(incident?.components).toEqual(
      expect.arrayContaining(['Authentication - Enterprise', 'MFA', 'Authorization', 'Connector Heartbeat']),
    );
  });

  it("a customer's own log with no zone (shape of seed 003): zone assumed, duration conflict, upstream AWS", () => {
    const [incident] = importFixture('text/customer-log-no-zone.md');
    expect(incident?.provider).toBe('northwind');
    expect(incident?.upstream).toEqual(['aws']);
    expect(replayWindow(incident!)).toEqual({ from: '2022-07-11T09:33:00Z', to: '2022-07-11T16:07:00Z' });
    const conflicts = incident?.conflicts ?? [];
    expect(conflicts.some((c) => c.startsWith('zoneAssumed:') && c.includes('09:33'))).toBe(true);
    expect(conflicts.some((c) => c.startsWith('stated duration 6h 27m') && c.includes('6h 34m'))).toBe(true);
  });

  it('status-page export with an ET postmortem (shape of seed 004): replay 11:07 → 13:01', () => {
    const [incident] = importFixture('text/history-export-et-postmortem.txt');
    expect(incident?.provider).toBe('ruvna');
    expect(incident?.impact).toBe('critical');
    expect(incident?.components).toEqual(['Ruvna Web App']);
    expect(replayWindow(incident!)).toEqual({ from: '2020-09-08T11:07:00Z', to: '2020-09-08T13:01:00Z' });
    // "lasting 1h 54m" is the status window exactly; 8:24AM ET (EDT in September) is 12:24 UTC.
    expect(incident?.conflicts?.some((c) => c.startsWith('stated duration'))).toBe(false);
    expect(incident?.conflicts?.some((c) => c.startsWith('impact ended 2020-09-08 12:24 UTC'))).toBe(true);
  });
});
