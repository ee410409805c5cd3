import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/loader.js';
import { buildMatcher } from '../../src/catalog/matcher.js';
import type { InputResult, ScheduledJob } from '../../src/model.js';
import { scanPaths } from '../../src/scan.js';

const FIXTURES = 'test/fixtures/jobs';

/** `kind name file:line schedule (zone)` per job, paths relative to the fixtures. */
function describeJob(job: ScheduledJob): string {
  return `${job.kind} ${job.name} ${relative(FIXTURES, job.file)}:${job.line} ${job.schedule} (${job.timeZone})`;
}

function jobs(inputs: InputResult[]): ScheduledJob[] {
  return inputs.flatMap((input) => input.jobs ?? []);
}

function problems(inputs: InputResult[]): string[] {
  return inputs.flatMap((input) => input.errors.map((e) => `${relative(FIXTURES, e.file)}:${e.line}: ${e.message}`));
}

describe('scheduled jobs in each source, in the real tools file shapes', () => {
  it('finds every schedule with its file, line, expression and zone', async () => {
    const { inputs, errors } = await scanPaths([`${FIXTURES}/repo`]);
    expect(errors).toEqual([]);
    expect(jobs(inputs).map(describeJob)).toEqual([
      'github-actions nightly-sync repo/.github/workflows/nightly.yml:4 30 20 * * * (UTC)',
      'github-actions nightly-sync repo/.github/workflows/nightly.yml:5 0 */6 * * 1-5 (UTC)',
      'azure-functions-timer NightlyCleanup repo/functions/NightlyCleanup/function.json:7 0 30 1 * * * (UTC)',
      'kubernetes-cronjob invoice-export repo/k8s/cronjobs.yaml:14 30 2 * * * (America/New_York)',
      'kubernetes-cronjob cache-warmer repo/k8s/cronjobs.yaml:32 CRON_TZ=Europe/Berlin */15 * * * * (Europe/Berlin)',
      'netlify-scheduled-function refresh-feeds repo/netlify.toml:9 @hourly (UTC)',
      'render-cron-job weekly-digest repo/render.yaml:10 0 9 * * 1 (UTC)',
      'serverless-schedule reconcile repo/serverless.yml:15 rate(10 minutes) (UTC)',
      'serverless-schedule reconcile repo/serverless.yml:18 cron(0 12 ? * MON-FRI *) (UTC)',
      'vercel-cron /api/cron/digest repo/vercel.json:4 0 8 * * * (UTC)',
      'vercel-cron /api/cron/cleanup repo/vercel.json:5 */10 * * * * (UTC)',
      'cloudflare-cron-trigger edge-jobs repo/wrangler.toml:6 */30 * * * * (UTC)',
      'cloudflare-cron-trigger edge-jobs repo/wrangler.toml:6 0 17 * * sun (UTC)',
      'cloudflare-cron-trigger edge-jobs (staging) repo/wrangler.toml:9 0 5 * * * (UTC)',
      'aws-eventbridge-rule aws_cloudwatch_event_rule.report repo/infra/schedules.tf:23 cron(15 21 ? * MON-FRI *) (UTC)',
      'aws-scheduler-schedule aws_scheduler_schedule.sweep repo/infra/schedules.tf:37 cron(30 2 * * ? *) (America/New_York)',
      'aws-eventbridge-rule aws_cloudwatch_event_rule.heartbeat repo/infra/schedules.tf:52 rate(5 minutes) (UTC)',
      'google-cloud-scheduler google_cloud_scheduler_job.ping repo/infra/schedules.tf:57 0 */2 * * * (Europe/London)',
      'azure-logic-app-recurrence azurerm_logic_app_trigger_recurrence.weekly repo/infra/schedules.tf:70 30 9 * * 1,5 (Europe/Berlin)',
    ]);
  });

  it('counts a YAML file that is no manifest as no input; a Deployment and a workflow without schedules count for their images and actions', async () => {
    const { inputs } = await scanPaths([`${FIXTURES}/repo`]);
    const byFile = new Map(inputs.map((input) => [relative(FIXTURES, input.file), input]));
    expect(byFile.has('repo/config.yaml')).toBe(false);
    expect(byFile.get('repo/k8s/deployment.yaml')?.dependencies.map((d) => d.name)).toEqual(['ghcr.io/acme/web:2.0.0']);
    expect(byFile.get('repo/k8s/deployment.yaml')?.jobs ?? []).toEqual([]);
    expect(byFile.get('repo/.github/workflows/ci.yml')?.jobs ?? []).toEqual([]);
    expect(byFile.get('repo/.github/workflows/ci.yml')?.dependencies.length).toBeGreaterThan(0);
  });

  it('records what each job reaches: hosts in its commands, its image registry, its Terraform targets', async () => {
    const { inputs } = await scanPaths([`${FIXTURES}/repo`]);
    const touches = Object.fromEntries(
      jobs(inputs).map((job) => [
        `${job.name}:${job.line}`,
        job.touches.map((touch) => `${touch.name}${touch.region ? `@${touch.region}` : ''}`),
      ]),
    );
    expect(touches['nightly-sync:4']).toEqual(['api.stripe.com']);
    expect(touches['invoice-export:14']).toEqual([
      '123456789012.dkr.ecr.us-east-1.amazonaws.com/invoice-export:1.4.2',
      'acme-invoices.s3.us-east-1.amazonaws.com',
    ]);
    expect(touches['cache-warmer:32']).toEqual(['curlimages/curl:8.8.0', 'api.example.org']);
    expect(touches['weekly-digest:10']).toEqual(['api.sendgrid.com']);
    expect(touches['aws_cloudwatch_event_rule.report:23']).toEqual([
      'aws_cloudwatch_event_rule@us-east-1',
      'aws_lambda_function@us-east-1',
    ]);
    expect(touches['aws_scheduler_schedule.sweep:37']).toEqual([
      'aws_scheduler_schedule@us-east-1',
      'aws_sqs_queue@us-east-1',
    ]);
    expect(touches['google_cloud_scheduler_job.ping:57']).toEqual([
      'google_cloud_scheduler_job@europe-west2',
      'hooks.partner.example.com',
    ]);
  });
});

describe('Netlify scheduled functions declared in their own source', () => {
  it('reads a literal config schedule, notes a computed one, and ignores functions without one', async () => {
    const { inputs } = await scanPaths([`${FIXTURES}/netlify-site`]);
    expect(jobs(inputs).map(describeJob)).toEqual([
      'netlify-scheduled-function refresh-rates netlify-site/netlify/functions/refresh-rates.mts:10 */30 * * * * (UTC)',
    ]);
    expect(jobs(inputs)[0]?.touches.map((touch) => touch.name)).toEqual(['api.exchangerate.host']);
    expect(problems(inputs)).toEqual([
      expect.stringMatching(
        /^netlify-site\/netlify\/functions\/nightly-digest\/index\.ts:7: Netlify scheduled function "nightly-digest": the schedule .* not listed$/,
      ),
    ]);
    expect(inputs.map((input) => relative(FIXTURES, input.file))).not.toContain(
      'netlify-site/netlify/functions/hello.ts',
    );
  });
});

describe('GitHub workflow images', () => {
  it('records the images of a container job, its services and docker:// steps, each at its own line', async () => {
    const { inputs } = await scanPaths([`${FIXTURES}/workflow-images`]);
    const touches = jobs(inputs)[0]?.touches ?? [];
    expect(touches.map((touch) => `${touch.ecosystem} ${touch.name}:${touch.line}`)).toEqual([
      'container-image public.ecr.aws/acme/tools:1:8',
      'container-image postgres:16:11',
      'container-image ghcr.io/acme/vacuum:2:13',
    ]);
    // The catalog reads each image's registry: ECR, Docker Hub, GitHub Packages.
    const matcher = buildMatcher(loadCatalog());
    expect(touches.map((touch) => matcher.match(touch)[0]?.provider)).toEqual(['aws', 'docker-hub', 'github']);
  });
});

describe('Terraform schedules resolve through the same evaluator as regions', () => {
  it('gives one job per value a variable takes, follows local modules and names the targets', async () => {
    const { inputs } = await scanPaths([`${FIXTURES}/terraform/root`]);
    expect(jobs(inputs).map(describeJob)).toEqual([
      // prod.tfvars sets the schedule; staging.tfvars leaves the default.
      'aws-eventbridge-rule aws_cloudwatch_event_rule.export terraform/root/main.tf:40 cron(30 5 * * ? *) (UTC)',
      'aws-eventbridge-rule aws_cloudwatch_event_rule.export terraform/root/main.tf:40 cron(0 4 * * ? *) (UTC)',
      'google-cloud-scheduler google_cloud_scheduler_job.tick terraform/root/main.tf:81 */10 * * * * (Asia/Kolkata)',
      'azure-logic-app-recurrence azurerm_logic_app_trigger_recurrence.hourly terraform/root/main.tf:94 every 4 hours (UTC)',
      'aws-eventbridge-rule module.cleanup.aws_cloudwatch_event_rule.cleanup terraform/modules/cleanup/main.tf:7 rate(1 day) (UTC)',
    ]);
    const hourly = jobs(inputs).find((job) => job.name.endsWith('hourly'));
    expect(hourly?.startsAt).toBe('2024-01-01T06:15:00.000Z');
    const export_ = jobs(inputs).find((job) => job.name.endsWith('export'));
    expect(export_?.touches.map((touch) => `${touch.name}@${touch.region}`)).toContain('aws_lambda_function@eu-west-1');
  });

  it('says why a schedule is not listed: unresolved variable, for_each element, disabled, paused, unknown Windows zone; event patterns are no schedule', async () => {
    const { inputs } = await scanPaths([`${FIXTURES}/terraform/root`]);
    const dollar = '$';
    expect(problems(inputs).sort()).toEqual([
      // One note for the for_each block, not one per module call.
      'terraform/modules/rules/main.tf:10: aws_cloudwatch_event_rule.this: schedule_expression comes from each for_each element (lookup(each.value, "schedule_expression", null)), which is not evaluated here; the schedules it sets are not listed',
      'terraform/root/main.tf:102: Logic Apps recurrence "azurerm_logic_app_trigger_recurrence.mars": "every 1 day": unknown time zone "Olympus Mons Standard Time"; not listed',
      `terraform/root/main.tf:50: EventBridge rule "aws_cloudwatch_event_rule.unset": the schedule "${dollar}{var.unset_schedule}" comes from a template, variable or setting not resolved here, so its times are not known; not listed`,
      'terraform/root/main.tf:61: aws_cloudwatch_event_rule.off is disabled; not listed',
      'terraform/root/main.tf:67: google_cloud_scheduler_job.paused is paused; not listed',
    ]);
  });
});

describe('bad input: a located note each, never a crash, nothing guessed', () => {
  it('reports broken files, invalid expressions and settings it cannot resolve, and stays quiet about look-alikes', async () => {
    const { inputs, errors } = await scanPaths([`${FIXTURES}/bad`]);
    const all = [...errors.map((e) => `${relative(FIXTURES, e.file)}:${e.line}: ${e.message}`), ...problems(inputs)];
    const expected = [
      /^bad\/\.github\/workflows\/broken\.yml:\d+: not valid YAML/,
      /^bad\/\.github\/workflows\/invalid-cron\.yml:4: GitHub Actions schedule "invalid-cron": "0 25 \* \* \*": .*hour.*25; not listed$/,
      /^bad\/k8s\/broken\.yaml:\d+: not valid YAML/,
      /^bad\/fn-setting\/function\.json:3: Azure Functions timer "fn-setting": the schedule "%CleanupSchedule%" comes from a template, variable or setting/,
      /^bad\/vercel\.json:\d+: (invalid JSON|JSON ends early)/,
      /^bad\/netlify\.toml:2: not valid TOML/,
      /^bad\/cf\/wrangler\.jsonc:4: Cloudflare Cron Trigger "jsonc-worker": "61 \* \* \* \*": .*minute.*61; not listed$/,
    ];
    for (const pattern of expected)
      expect(
        all.some((line) => pattern.test(line)),
        String(pattern),
      ).toBe(true);
    expect(all).toHaveLength(expected.length);
    // The valid schedules next to the broken ones still count.
    expect(jobs(inputs).map((job) => `${job.name} ${job.schedule}`)).toEqual([
      'invalid-cron 15 4 * * 1',
      'jsonc-worker 0 */3 * * *',
    ]);
    const files = inputs.map((input) => relative(FIXTURES, input.file));
    for (const quiet of [
      'bad/notk8s/app.yaml',
      'bad/notk8s/openapi.yaml',
      'bad/fn-http/function.json',
      'bad/gcp-sls/serverless.yml',
    ])
      expect(files).not.toContain(quiet);
  });
});
