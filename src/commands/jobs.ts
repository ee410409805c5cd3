// `downstack jobs`: every scheduled job found in the paths with its next runs, so a team can check the detection.
import type { Command } from 'commander';
import { buildMatcher } from '../catalog/matcher.js';
import { EXIT } from '../errors.js';
import { JOB_KINDS } from '../jobs/kinds.js';
import { knownJobs, type KnownJob } from '../jobs/runs.js';
import { nextRuns, readSchedule, type RunList } from '../jobs/schedule.js';
import { scheduleLabel } from '../report/job-runs.js';
import { cleanLine, joinText, jsonDocument, type SafeText, text } from '../sanitize.js';
import { scanPaths } from '../scan.js';
import { formatUtc } from '../time.js';
import type { CliContext } from './context.js';

interface JobsFlags {
  format: 'table' | 'json';
  next: number;
}

export async function runJobsCommand(command: Command, context: CliContext, paths: string[]): Promise<void> {
  const settings = await context.settings<JobsFlags>('jobs', command, paths);
  const { flags } = settings;
  const count = flags.next;
  const catalog = settings.catalog();
  const scan = await scanPaths(paths, { readStdin: context.readStdin });
  context.reportProblems([...scan.errors, ...scan.inputs.flatMap((input) => input.errors)]);
  const jobs = knownJobs(
    scan.inputs.flatMap((input) => input.jobs ?? []),
    buildMatcher(catalog),
    catalog,
  );
  const listed = jobs.map((known) => ({ known, next: upcoming(known, context.now, count) }));
  const name = (id: string) => catalog.providers.get(id)?.name ?? id;
  if (flags.format === 'json') {
    await context.emit(jsonDocument(jobsToJson(listed, context.now)));
  } else if (jobs.length === 0) {
    context.stderr.write(
      text`downstack: no scheduled job found in ${paths.map((path) => cleanLine(path, 200)).join(', ')}\n`,
    );
  } else {
    await context.emit(jobsTable(listed, name));
  }
  if (jobs.length === 0) context.setExitCode(EXIT.noInput);
}

function upcoming({ job }: KnownJob, now: Date, count: number): RunList {
  const reading = readSchedule(job);
  return reading.ok ? nextRuns(reading.schedule, now, count) : { at: [], count: 0, more: false, notes: [] };
}

type Listed = { known: KnownJob; next: RunList };

function jobsTable(listed: Listed[], name: (id: string) => string): SafeText {
  const out = [text`Scheduled jobs (${listed.length})`];
  for (const { known, next } of listed) {
    const { job, providers } = known;
    const where = cleanLine(`${job.file}${job.line ? `:${job.line}` : ''}`, 120);
    out.push(text`  ${cleanLine(job.name, 80)}  ${where}`);
    out.push(text`      ${JOB_KINDS[job.kind].label} · ${cleanLine(scheduleLabel(job), 120)}`);
    const when =
      next.every !== undefined
        ? `every ${next.every}; the times are not known (no start time in the file)`
        : next.at.length > 0
          ? `next ${next.at.map(formatUtc).join(', ')}`
          : 'no run ahead';
    out.push(text`      ${when}`);
    if (providers.length > 0) out.push(text`      uses ${providers.map((id) => cleanLine(name(id), 60)).join(', ')}`);
    for (const note of next.notes) out.push(text`      ${cleanLine(note, 200)}`);
  }
  return text`${joinText(out)}\n`;
}

function jobsToJson(listed: Listed[], now: Date): object {
  return {
    schemaVersion: 1,
    generatedAt: now.toISOString(),
    jobs: listed.map(({ known: { job, providers }, next }) => ({
      name: job.name,
      kind: job.kind,
      file: job.file,
      ...(job.line ? { line: job.line } : {}),
      schedule: job.schedule,
      timeZone: job.timeZone,
      ...(job.startsAt ? { startsAt: job.startsAt } : {}),
      next: next.at,
      ...(next.every ? { every: next.every } : {}),
      providers,
      touches: job.touches,
      notes: next.notes,
    })),
  };
}
