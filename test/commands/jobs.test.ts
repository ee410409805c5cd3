import { describe, expect, it } from 'vitest';
import { copyIndex, runCli } from '../helpers/cli.js';

const STACK = 'test/fixtures/jobs/replay-stack';
// Replay windows as the pages gave them: the lead before a first post has tests of its own.
const AUGUST = ['--since', '2021-08-01', '--until', '2021-08-31T23:59Z', '--no-snapshot', '--lead', '0'];
// The fixture index: Twingate 2021-08-10 19:39 → 21:24 merges with S3 us-east-1 21:00 → 22:30.
const check = (...extra: string[]) =>
  runCli(['check', STACK, '--index', copyIndex('test/fixtures/index'), ...AUGUST, ...extra]);

interface RunsJson {
  job: string;
  kind: string;
  file: string;
  line: number;
  schedule: string;
  timeZone: string;
  at: string[];
  count: number;
  more: boolean;
  every?: string;
  providers: string[];
}

describe('what to replay names the scheduled jobs that ran in each window (real binary)', () => {
  it('lists each job with its runs inside the band in JSON, jobs that use a hit provider first', async () => {
    const run = await check('--format', 'json');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    const [first, second] = report.replay as Array<{ runs: RunsJson[] }>;
    const byName = Object.fromEntries((first?.runs ?? []).map((entry) => [entry.job, entry]));
    expect(first?.runs.map((entry) => entry.job)).toEqual([
      'aws_scheduler_schedule.sweep',
      'nightly-sync',
      'receipts-report',
      '/api/cron/heartbeat',
    ]);
    expect(byName['nightly-sync']).toMatchObject({
      kind: 'github-actions',
      file: `${STACK}/.github/workflows/nightly.yml`,
      line: 4,
      schedule: '30 20 * * *',
      timeZone: 'UTC',
      at: ['2021-08-10T20:30:00.000Z'],
      count: 1,
      providers: ['github', 'stripe'],
    });
    // 17:00 in New York in August is 21:00 UTC (EDT).
    expect(byName['receipts-report']).toMatchObject({ at: ['2021-08-10T21:00:00.000Z'], timeZone: 'America/New_York' });
    expect(byName['aws_scheduler_schedule.sweep']?.at).toEqual([
      '2021-08-10T20:05:00.000Z',
      '2021-08-10T20:35:00.000Z',
      '2021-08-10T21:05:00.000Z',
      '2021-08-10T21:35:00.000Z',
      '2021-08-10T22:05:00.000Z',
    ]);
    expect(byName['aws_scheduler_schedule.sweep']?.providers).toEqual(['aws']);
    // 19:39 to 22:30 inclusive: 172 minutes.
    expect(byName['/api/cron/heartbeat']).toMatchObject({ count: 172, more: false });
    // The monthly job has no run in either band and is not listed there.
    expect(second?.runs.map((entry) => entry.job)).toEqual(['/api/cron/heartbeat', 'aws_scheduler_schedule.sweep']);
    expect(report.jobs.map((job: { name: string }) => job.name)).toContain('/api/cron/monthly-invoices');
  });

  it('bounds a minutely job over an open window: JSON lists 500 times and says there were more', async () => {
    const report = JSON.parse((await check('--format', 'json')).stdout);
    const open = report.replay.find((band: { to: string | null }) => band.to === null);
    const heartbeat = open.runs.find((entry: RunsJson) => entry.job === '/api/cron/heartbeat');
    expect(heartbeat.at).toHaveLength(500);
    expect(heartbeat.more).toBe(true);
    expect(heartbeat.at[0]).toBe('2021-08-30T23:00:00.000Z');
  });

  it('prints one line per job under each window in the table, a few times and a count', async () => {
    const run = await check();
    expect(run.code).toBe(0);
    const replay = run.stdout.slice(run.stdout.indexOf('What to replay'));
    expect(replay).toMatch(
      /nightly-sync +\.github\/workflows\/nightly\.yml:4 +cron 30 20 \* \* \* \(UTC\) +ran 20:30 +· uses GitHub, Stripe/,
    );
    expect(replay).toMatch(/\/api\/cron\/heartbeat .* ran 19:39, 19:40, 19:41, 19:42 and 168 more/);
    expect(replay).toMatch(/aws_scheduler_schedule\.sweep .* · uses Amazon Web Services, hit in this window/);
    expect(replay).toMatch(
      /ran 08-30 23:00, 08-30 23:01, 08-30 23:02, 08-30 23:03 and more \(over 500 in this window\)/,
    );
    expect(replay).not.toContain(
      'monthly-invoices  test/fixtures/jobs/replay-stack/vercel.json:4  cron 0 0 1 * * (UTC)  ran 08-',
    );
  });

  it('makes the runs a checklist in Markdown', async () => {
    const run = await check('--format', 'markdown');
    expect(run.stdout).toContain(
      '  - [ ] Check **nightly-sync** (`.github/workflows/nightly.yml:4`, `cron 30 20 * * * (UTC)`): ran 20:30 · uses GitHub, Stripe',
    );
  });

  it('lists the runs as a checklist in HTML and marks them on the timeline, one row per job', async () => {
    const html = (await check('--format', 'html')).stdout;
    expect(html).toContain('<li class="job-run">Check <strong>nightly-sync</strong>');
    const marks = html.match(/<line class="run"[^>]*><title>[^<]*<\/title><\/line>/g) ?? [];
    expect(marks.some((mark) => mark.includes('nightly-sync ran 2021-08-10 20:30 UTC'))).toBe(true);
    // A minutely job is one stretch per window, titled with its count, not a smear of hundreds of strokes.
    expect(html).toContain('/api/cron/heartbeat ran 172 times, 2021-08-10 19:39 UTC → 2021-08-10 22:30 UTC');
    expect(marks.some((mark) => mark.includes('heartbeat'))).toBe(false);
    expect(html).toMatch(/<text class="row-label" x="8" y="\d+">nightly-sync<title>nightly-sync<\/title><\/text>/);
  });
});

describe('downstack jobs (real binary)', () => {
  it('lists every schedule found with its next runs, and each problem as a located note', async () => {
    const run = await runCli(['jobs', 'test/fixtures/jobs/repo', '--format', 'json']);
    expect(run.code).toBe(0);
    const { jobs } = JSON.parse(run.stdout);
    const names = jobs.map((job: { name: string; kind: string }) => `${job.kind} ${job.name}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'github-actions nightly-sync',
        'kubernetes-cronjob invoice-export',
        'kubernetes-cronjob cache-warmer',
        'vercel-cron /api/cron/digest',
        'netlify-scheduled-function refresh-feeds',
        'cloudflare-cron-trigger edge-jobs (staging)',
        'render-cron-job weekly-digest',
        'serverless-schedule reconcile',
        'azure-functions-timer NightlyCleanup',
        'aws-eventbridge-rule aws_cloudwatch_event_rule.report',
        'aws-scheduler-schedule aws_scheduler_schedule.sweep',
        'google-cloud-scheduler google_cloud_scheduler_job.ping',
        'azure-logic-app-recurrence azurerm_logic_app_trigger_recurrence.weekly',
      ]),
    );
    expect(jobs).toHaveLength(19);
    const heartbeat = jobs.find((job: { name: string }) => job.name === 'aws_cloudwatch_event_rule.heartbeat');
    expect(heartbeat).toMatchObject({ every: '5 minutes', next: [] });
    // The notes quote the files' own `${…}` placeholders.
    const dollar = '$';
    for (const note of [
      `templated.yml:4: GitHub Actions schedule "templated": the schedule "${dollar}{{ vars.NIGHTLY_CRON }}" comes from a template`,
      'chart/templates/cronjob.yaml:7: Kubernetes CronJob in a template',
      'k8s/cronjobs.yaml:48: Kubernetes CronJob "paused-report" is suspended',
      'k8s/cronjobs.yaml:32: Kubernetes CronJob "cache-warmer": a time zone in spec.schedule (CRON_TZ=/TZ=) was never supported',
      'k8s/cronjobs.yaml:64: Kubernetes CronJob "bad-zone": "0 4 * * *": unknown time zone "Europe/Atlantis"',
      'serverless.yml:24: Serverless Framework schedule "archive" is disabled',
      `serverless.yml:29: Serverless Framework schedule "templated": the schedule "${dollar}{self:custom.schedule}"`,
      'infra/schedules.tf:83: EventBridge rule "aws_cloudwatch_event_rule.broken": "cron(0 12 * * *)": cron() takes six fields',
    ])
      expect(run.stderr).toContain(note);
    // A YAML file that is not a manifest, and a workflow without a schedule, say nothing.
    expect(run.stderr).not.toContain('config.yaml');
    expect(run.stderr).not.toContain('ci.yml');
  });

  it('prints the table a team reads to check the detection', async () => {
    const run = await runCli(['jobs', 'test/fixtures/jobs/repo/k8s']);
    expect(run.stdout).toMatch(
      /invoice-export {2}test\/fixtures\/jobs\/repo\/k8s\/cronjobs\.yaml:14\n\s+Kubernetes CronJob · cron 30 2 \* \* \* \(America\/New_York\)\n\s+next /,
    );
    expect(run.stdout).toContain('uses Amazon Web Services');
  });

  it('exits 3 and says so when no schedule is found', async () => {
    const run = await runCli(['jobs', 'test/fixtures/report/stack']);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('no scheduled job found in test/fixtures/report/stack');
  });
});
