// A schedule a parser found → a job, or a located note saying why it is not listed (templated, invalid, unknown zone).
import type { Dependency, InputProblem, JobKind, ScheduledJob } from '../model.js';
import { JOB_KINDS } from './kinds.js';
import { readSchedule } from './schedule.js';

export interface JobCandidate {
  name: string;
  kind: JobKind;
  file: string;
  line?: number;
  /** As the file has it; anything but a string is a problem. */
  schedule: unknown;
  timeZone?: unknown;
  startsAt?: string;
  touches?: Dependency[];
}

/** GitHub `${{ }}`, Helm/Go `{{ }}`, Terraform `${ }` and `%{ }`, Azure `%AppSetting%`. */
const TEMPLATE = /\$\{\{|\{\{|\$\{|%\{|^%[^%\s]+%$/;

export function jobOrProblem(candidate: JobCandidate): { job: ScheduledJob } | { problem: InputProblem } {
  const { name, kind, file, line } = candidate;
  const where = { file, ...(line ? { line } : {}) };
  const label = `${JOB_KINDS[kind].label} "${name}"`;
  const problem = (message: string) => ({ problem: { ...where, message: `${label}: ${message}; not listed` } });
  if (typeof candidate.schedule !== 'string' || candidate.schedule.trim() === '')
    return problem('the schedule is missing or not a string');
  const schedule = candidate.schedule.trim();
  if (TEMPLATE.test(schedule))
    return problem(
      `the schedule "${schedule}" comes from a template, variable or setting not resolved here, so its times are not known`,
    );
  const zone = candidate.timeZone ?? 'UTC';
  if (typeof zone !== 'string' || zone.trim() === '') return problem('the time zone is not a string');
  if (TEMPLATE.test(zone))
    return problem(
      `the time zone "${zone}" is filled in by a template or setting, so the run times are not known here`,
    );
  // `CRON_TZ=Europe/Berlin 0 3 * * *` names its zone in the schedule itself.
  const prefixed = candidate.timeZone === undefined ? /^(?:CRON_)?TZ=(\S+)\s/.exec(schedule)?.[1] : undefined;
  const job: ScheduledJob = {
    name,
    kind,
    ...where,
    schedule,
    timeZone: prefixed ?? zone.trim(),
    ...(candidate.startsAt ? { startsAt: candidate.startsAt } : {}),
    touches: candidate.touches ?? [],
  };
  const reading = readSchedule(job);
  if (!reading.ok) return problem(`"${schedule}": ${reading.reason}`);
  return { job };
}

/** Sorts candidates into jobs and problems, the shape every parser returns them in. */
export function collectJobs(candidates: JobCandidate[]): { jobs: ScheduledJob[]; errors: InputProblem[] } {
  const jobs: ScheduledJob[] = [];
  const errors: InputProblem[] = [];
  for (const candidate of candidates) {
    const result = jobOrProblem(candidate);
    if ('job' in result) jobs.push(result.job);
    else errors.push(result.problem);
  }
  return { jobs, errors };
}
