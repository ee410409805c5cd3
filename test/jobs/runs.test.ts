import { describe, expect, it } from 'vitest';
import type { ScheduledJob } from '../../src/model.js';
import { RUNS_LISTED, withRuns } from '../../src/jobs/runs.js';

function job(name: string, kind: ScheduledJob['kind'], schedule: string, timeZone = 'UTC'): ScheduledJob {
  return { name, kind, file: `${name}.yml`, line: 1, schedule, timeZone, touches: [] };
}

describe('runs inside replay bands', () => {
  const band = { from: '2025-03-09T05:00:00Z', to: '2025-03-09T09:00:00Z', providers: ['aws'] };

  it('lists jobs using a provider of the band first, then those using any provider, and leaves out jobs that did not run', () => {
    const [planned] = withRuns(
      [band],
      [
        { job: job('plain', 'kubernetes-cronjob', '0 6 * * *'), providers: [] },
        { job: job('elsewhere', 'vercel-cron', '0 7 * * *'), providers: ['vercel'] },
        { job: job('on-aws', 'aws-eventbridge-rule', 'cron(0 8 * * ? *)'), providers: ['aws'] },
        { job: job('never', 'vercel-cron', '0 12 * * *'), providers: ['vercel'] },
      ],
      new Date('2025-03-10T00:00:00Z'),
    );
    expect(planned?.runs?.map((runs) => runs.job)).toEqual(['on-aws', 'elsewhere', 'plain']);
  });

  it('carries the daylight-saving note of a run moved to the jump', () => {
    const [planned] = withRuns(
      [band],
      [{ job: job('nightly', 'google-cloud-scheduler', '30 2 * * *', 'America/New_York'), providers: [] }],
      new Date('2025-03-10T00:00:00Z'),
    );
    expect(planned?.runs?.[0]).toMatchObject({ at: ['2025-03-09T07:00:00.000Z'], count: 1 });
    expect(planned?.runs?.[0]?.notes[0]).toMatch(/did not exist on 2025-03-09/);
  });

  it('gives an unanchored interval its expected count, and runs an open band up to now', () => {
    const open = { from: '2025-01-01T00:00:00Z', to: null, providers: ['aws'] };
    const [planned] = withRuns(
      [open],
      [
        { job: job('rate', 'aws-eventbridge-rule', 'rate(1 hour)'), providers: ['aws'] },
        { job: job('minutely', 'github-actions', '* * * * *'), providers: ['github'] },
      ],
      new Date('2025-01-01T10:00:00Z'),
    );
    expect(planned?.runs?.[0]).toMatchObject({ job: 'rate', at: [], every: '1 hour', count: 10 });
    expect(planned?.runs?.[1]).toMatchObject({ job: 'minutely', count: RUNS_LISTED, more: true });
    expect(planned?.runs?.[1]?.at).toHaveLength(RUNS_LISTED);
  });
});
