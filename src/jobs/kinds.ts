// What each scheduler is, as data: how it writes a schedule, what it does on daylight-saving days, where it runs.
import type { JobKind } from '../model.js';

/**
 * `cron`: five fields, minute first (Vixie/POSIX, with `L W #` where the scheduler has them); `aws`: `cron()` with six
 * fields (minutes … year, `?`, 1 = Sunday), `rate()` and `at()`; `ncrontab`: six fields, seconds first, or an
 * `hh:mm:ss` interval; `recurrence`: what the Terraform reader writes for a Logic Apps recurrence (five-field cron, or
 * `every N unit`).
 */
export type ScheduleSyntax = 'cron' | 'aws' | 'ncrontab' | 'recurrence';

/**
 * A fixed-time run whose local time does not exist (clocks go forward) or happens twice (clocks go back):
 * `cron` — ISC cron: runs once, at the jump, and once on the first of the two; `skip-gap` — not run on the day
 * clocks go forward, once when they go back (EventBridge Scheduler documents this); `kubernetes` — the CronJob
 * controller's robfig/cron steps through absolute hours: skipped when clocks go forward, run twice when they go back.
 */
export type DaylightRule = 'cron' | 'skip-gap' | 'kubernetes';

export interface JobKindInfo {
  /** How reports name the kind. */
  label: string;
  syntax: ScheduleSyntax;
  daylight: DaylightRule;
  /** Where the scheduler runs the job, for platforms that run it themselves (catalog provider id and component). */
  runsOn?: { provider: string; component?: string };
}

export const JOB_KINDS: Record<JobKind, JobKindInfo> = {
  'github-actions': {
    label: 'GitHub Actions schedule',
    syntax: 'cron',
    daylight: 'cron',
    runsOn: { provider: 'github', component: 'Actions' },
  },
  'vercel-cron': {
    label: 'Vercel cron job',
    syntax: 'cron',
    daylight: 'cron',
    runsOn: { provider: 'vercel', component: 'Vercel Functions' },
  },
  'netlify-scheduled-function': {
    label: 'Netlify scheduled function',
    syntax: 'cron',
    daylight: 'cron',
    runsOn: { provider: 'netlify', component: 'Functions' },
  },
  'cloudflare-cron-trigger': {
    label: 'Cloudflare Cron Trigger',
    syntax: 'cron',
    daylight: 'cron',
    runsOn: { provider: 'cloudflare', component: 'Workers' },
  },
  'render-cron-job': {
    label: 'Render cron job',
    syntax: 'cron',
    daylight: 'cron',
    runsOn: { provider: 'render', component: 'Cron Jobs' },
  },
  'serverless-schedule': {
    label: 'Serverless Framework schedule',
    syntax: 'aws',
    daylight: 'cron',
    runsOn: { provider: 'aws', component: 'Amazon EventBridge' },
  },
  'kubernetes-cronjob': { label: 'Kubernetes CronJob', syntax: 'cron', daylight: 'kubernetes' },
  'azure-functions-timer': {
    label: 'Azure Functions timer',
    syntax: 'ncrontab',
    daylight: 'cron',
    runsOn: { provider: 'azure', component: 'Azure Functions' },
  },
  // The Terraform kinds carry their own resource as evidence, matched (with its region) through the catalog.
  'aws-eventbridge-rule': { label: 'EventBridge rule', syntax: 'aws', daylight: 'cron' },
  'aws-scheduler-schedule': { label: 'EventBridge Scheduler schedule', syntax: 'aws', daylight: 'skip-gap' },
  'google-cloud-scheduler': { label: 'Cloud Scheduler job', syntax: 'cron', daylight: 'cron' },
  'azure-logic-app-recurrence': { label: 'Logic Apps recurrence', syntax: 'recurrence', daylight: 'cron' },
};
