// The runs of the repository's scheduled jobs inside each replay band: the concrete replay checklist.
import type { Catalog } from '../catalog/loader.js';
import type { Matcher } from '../catalog/matcher.js';
import type { JobRuns, ReplayBand, ScheduledJob } from '../model.js';
import { JOB_KINDS } from './kinds.js';
import { readSchedule, runsBetween } from './schedule.js';

/** Run times listed per job and band; past this a report says "more". A minutely job over days would list thousands. */
export const RUNS_LISTED = 500;

/** A job with the providers it runs on or reaches, resolved once through the catalog. */
export interface KnownJob {
  job: ScheduledJob;
  providers: string[];
}

export function knownJobs(jobs: ScheduledJob[], matcher: Matcher, catalog: Catalog): KnownJob[] {
  return jobs.map((job) => {
    const providers = new Set<string>();
    const runsOn = JOB_KINDS[job.kind].runsOn;
    // A catalog of one's own may leave the platform out; then the job simply names no platform.
    if (runsOn && catalog.providers.has(runsOn.provider)) providers.add(runsOn.provider);
    for (const touch of job.touches) for (const hit of matcher.match(touch)) providers.add(hit.provider);
    return { job, providers: [...providers] };
  });
}

/**
 * Each band with the runs that fell inside it (an open band runs to `now`). Jobs that run on or reach a provider of
 * the band come first, then jobs that reach any known provider, then the rest; jobs with no run inside are left out.
 */
export function withRuns(bands: ReplayBand[], jobs: KnownJob[], now: Date): ReplayBand[] {
  if (jobs.length === 0) return bands;
  const schedules = jobs.flatMap(({ job, providers }) => {
    const reading = readSchedule(job);
    return reading.ok ? [{ job, providers, schedule: reading.schedule }] : [];
  });
  return bands.map((band) => {
    const to = band.to === null ? now : new Date(band.to);
    const runs: JobRuns[] = [];
    for (const { job, providers, schedule } of schedules) {
      const found = runsBetween(schedule, new Date(band.from), to, RUNS_LISTED);
      if (found.at.length === 0 && found.every === undefined) continue;
      runs.push({
        job: job.name,
        kind: job.kind,
        file: job.file,
        ...(job.line ? { line: job.line } : {}),
        schedule: job.schedule,
        timeZone: job.timeZone,
        at: found.at,
        count: found.count,
        more: found.more,
        ...(found.every ? { every: found.every } : {}),
        providers,
        notes: found.notes,
      });
    }
    const rank = (entry: JobRuns) =>
      entry.providers.some((provider) => band.providers.includes(provider)) ? 0 : entry.providers.length > 0 ? 1 : 2;
    runs.sort((a, b) => rank(a) - rank(b));
    return runs.length > 0 ? { ...band, runs } : band;
  });
}
