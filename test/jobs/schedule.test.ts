import { describe, expect, it } from 'vitest';
import type { ScheduledJob } from '../../src/model.js';
import { nextRuns, readSchedule, runsBetween, type Schedule } from '../../src/jobs/schedule.js';

function schedule(kind: ScheduledJob['kind'], text: string, timeZone = 'UTC', startsAt?: string): Schedule {
  const reading = readSchedule({ kind, schedule: text, timeZone, ...(startsAt ? { startsAt } : {}) });
  if (!reading.ok) throw new Error(reading.reason);
  return reading.schedule;
}

function between(s: Schedule, from: string, to: string, limit = 100) {
  return runsBetween(s, new Date(from), new Date(to), limit);
}

function reason(kind: ScheduledJob['kind'], text: string, timeZone = 'UTC'): string | undefined {
  const reading = readSchedule({ kind, schedule: text, timeZone });
  return reading.ok ? undefined : reading.reason;
}

describe('five-field cron in UTC', () => {
  it('lists the runs inside a window, both ends included', () => {
    const runs = between(schedule('github-actions', '30 20 * * *'), '2021-08-10T19:39:00Z', '2021-08-11T20:30:00Z');
    expect(runs.at).toEqual(['2021-08-10T20:30:00.000Z', '2021-08-11T20:30:00.000Z']);
    expect(runs.count).toBe(2);
    expect(runs.more).toBe(false);
  });

  it('runs a leap-day job only on 29 February', () => {
    const s = schedule('github-actions', '0 0 29 2 *');
    expect(nextRuns(s, new Date('2025-01-01T00:00:00Z'), 2).at).toEqual([
      '2028-02-29T00:00:00.000Z',
      '2032-02-29T00:00:00.000Z',
    ]);
    expect(between(s, '2027-02-27T00:00:00Z', '2027-03-02T00:00:00Z').count).toBe(0);
  });

  it('stops listing at the limit and says there were more, without counting millions', () => {
    const runs = between(schedule('github-actions', '* * * * *'), '2025-01-01T00:00:00Z', '2028-01-01T00:00:00Z', 50);
    expect(runs.at).toHaveLength(50);
    expect(runs.more).toBe(true);
    expect(runs.at[49]).toBe('2025-01-01T00:49:00.000Z');
  });

  it('rejects expressions the scheduler would reject, with the reason', () => {
    expect(reason('github-actions', '61 * * * *')).toMatch(/minute.*61/);
    expect(reason('github-actions', '0 0 * *')).toMatch(/five fields.*found 4/);
    expect(reason('github-actions', '0 0 * * *', 'Mars/Olympus')).toBe('unknown time zone "Mars/Olympus"');
  });
});

describe('daylight saving in named time zones', () => {
  // 2025-03-09: New York clocks jump from 02:00 EST to 03:00 EDT; 2025-11-02: back from 02:00 EDT to 01:00 EST.
  it('moves a Cloud Scheduler 02:30 run to the jump on the day clocks go forward, and says so', () => {
    const runs = between(
      schedule('google-cloud-scheduler', '30 2 * * *', 'America/New_York'),
      '2025-03-08T00:00:00Z',
      '2025-03-10T12:00:00Z',
    );
    expect(runs.at).toEqual(['2025-03-08T07:30:00.000Z', '2025-03-09T07:00:00.000Z', '2025-03-10T06:30:00.000Z']);
    expect(runs.notes.join()).toMatch(/did not exist on 2025-03-09 in America\/New_York.*listed at 03:00/);
  });

  it('leaves out the skipped 02:30 run of an EventBridge Scheduler schedule and of a Kubernetes CronJob', () => {
    for (const kind of ['aws-scheduler-schedule', 'kubernetes-cronjob'] as const) {
      const text = kind === 'aws-scheduler-schedule' ? 'cron(30 2 * * ? *)' : '30 2 * * *';
      const runs = between(schedule(kind, text, 'America/New_York'), '2025-03-08T00:00:00Z', '2025-03-10T12:00:00Z');
      expect(runs.at).toEqual(['2025-03-08T07:30:00.000Z', '2025-03-10T06:30:00.000Z']);
      expect(runs.notes.join()).toMatch(/not listed, as the .* skips it/);
    }
  });

  it('runs a 01:30 job once on the day clocks go back, except under Kubernetes, which runs it twice', () => {
    const window = ['2025-11-02T00:00:00Z', '2025-11-02T12:00:00Z'] as const;
    const once = between(schedule('google-cloud-scheduler', '30 1 * * *', 'America/New_York'), ...window);
    expect(once.at).toEqual(['2025-11-02T05:30:00.000Z']);
    expect(once.notes.join()).toMatch(/01:30 happened twice on 2025-11-02.*listed once/);
    const twice = between(schedule('kubernetes-cronjob', '30 1 * * *', 'America/New_York'), ...window);
    expect(twice.at).toEqual(['2025-11-02T05:30:00.000Z', '2025-11-02T06:30:00.000Z']);
  });

  it('runs an every-20-minutes job through both copies of the repeated hour', () => {
    const runs = between(
      schedule('google-cloud-scheduler', '*/20 1 * * *', 'America/New_York'),
      '2025-11-02T04:00:00Z',
      '2025-11-02T08:00:00Z',
    );
    expect(runs.count).toBe(6);
  });

  it('reads CRON_TZ= before the fields as the zone, and refuses one that contradicts spec.timeZone', () => {
    const s = schedule('kubernetes-cronjob', 'CRON_TZ=Europe/Paris 0 3 * * *');
    expect(nextRuns(s, new Date('2025-07-01T00:00:00Z'), 1).at).toEqual(['2025-07-01T01:00:00.000Z']);
    expect(reason('kubernetes-cronjob', 'CRON_TZ=Europe/Paris 0 3 * * *', 'Asia/Tokyo')).toMatch(/says Europe\/Paris/);
    expect(reason('kubernetes-cronjob', 'CRON_TZ=Nowhere/City 0 3 * * *')).toMatch(/unknown time zone/);
  });
});

describe('AWS schedule expressions', () => {
  it('reads six-field cron() with ?, L, W, # and a year, weekdays counted from 1 = Sunday', () => {
    const after = new Date('2025-01-01T00:00:00Z');
    expect(nextRuns(schedule('aws-eventbridge-rule', 'cron(0 8 ? * 2-6 *)'), after, 3).at).toEqual([
      '2025-01-01T08:00:00.000Z',
      '2025-01-02T08:00:00.000Z',
      '2025-01-03T08:00:00.000Z',
    ]);
    expect(nextRuns(schedule('aws-eventbridge-rule', 'cron(15 10 ? * 6L 2025)'), after, 1).at).toEqual([
      '2025-01-31T10:15:00.000Z',
    ]);
    expect(nextRuns(schedule('aws-eventbridge-rule', 'cron(0 9 15W * ? *)'), after, 2).at).toEqual([
      '2025-01-15T09:00:00.000Z',
      '2025-02-14T09:00:00.000Z',
    ]);
    expect(nextRuns(schedule('aws-eventbridge-rule', 'cron(0 9 ? * 3#2 *)'), after, 1).at).toEqual([
      '2025-01-14T09:00:00.000Z',
    ]);
    expect(nextRuns(schedule('aws-eventbridge-rule', 'cron(0/15 * * * ? *)'), after, 2).at).toEqual([
      '2025-01-01T00:15:00.000Z',
      '2025-01-01T00:30:00.000Z',
    ]);
  });

  it('has no run after the last year a cron() names', () => {
    expect(nextRuns(schedule('aws-eventbridge-rule', 'cron(0 1 1 * ? 2020)'), new Date('2025-01-01'), 3).at).toEqual(
      [],
    );
  });

  it('rejects cron() without exactly one ? and with five fields', () => {
    expect(reason('aws-eventbridge-rule', 'cron(0 12 * * * *)')).toMatch(/exactly one of day-of-month/);
    expect(reason('aws-eventbridge-rule', 'cron(0 12 * * ?)')).toMatch(/six fields/);
    expect(reason('aws-eventbridge-rule', '0 12 * * ? *')).toMatch(/cron\(…\), rate\(…\) or at\(…\)/);
  });

  it('gives an unanchored rate() its interval and expected count, with no times', () => {
    const runs = between(
      schedule('aws-eventbridge-rule', 'rate(5 minutes)'),
      '2025-01-01T10:00:00Z',
      '2025-01-01T11:45:00Z',
    );
    expect(runs).toMatchObject({ at: [], every: '5 minutes', count: 21 });
    expect(reason('aws-eventbridge-rule', 'rate(5 fortnights)')).toMatch(/not an interval/);
  });

  it('lists the runs of a rate() with a start date', () => {
    const runs = between(
      schedule('aws-scheduler-schedule', 'rate(1 hour)', 'UTC', '2025-01-01T00:10:00Z'),
      '2025-01-01T10:00:00Z',
      '2025-01-01T12:30:00Z',
    );
    expect(runs.at).toEqual(['2025-01-01T10:10:00.000Z', '2025-01-01T11:10:00.000Z', '2025-01-01T12:10:00.000Z']);
  });

  it('reads at() in the schedule time zone', () => {
    const s = schedule('aws-scheduler-schedule', 'at(2025-07-01T09:00:00)', 'Europe/London');
    expect(nextRuns(s, new Date('2025-01-01T00:00:00Z'), 3).at).toEqual(['2025-07-01T08:00:00.000Z']);
  });
});

describe('NCRONTAB (Azure Functions)', () => {
  it('reads six fields with seconds first', () => {
    expect(
      nextRuns(schedule('azure-functions-timer', '0 30 9 * * 1-5'), new Date('2025-01-03T10:00:00Z'), 2).at,
    ).toEqual(['2025-01-06T09:30:00.000Z', '2025-01-07T09:30:00.000Z']);
  });

  it('reads an hh:mm:ss interval as unanchored, and refuses five fields', () => {
    expect(
      between(schedule('azure-functions-timer', '00:15:00'), '2025-01-01T00:00:00Z', '2025-01-01T01:00:00Z'),
    ).toMatchObject({
      every: '15 minutes',
      count: 4,
    });
    expect(reason('azure-functions-timer', '*/5 * * * *')).toMatch(/six fields.*found 5/);
  });
});
