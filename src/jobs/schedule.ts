// Schedules → run times in UTC. croner (https://croner.56k.guru) is the cron engine: it reads `L`, `W`, `#`, years
// and Quartz weekday numbers (AWS needs all of them) and moves runs across daylight-saving changes the way ISC cron
// does; the schedulers that do otherwise are handled here, from the rules in kinds.ts.
import { createRequire } from 'node:module';
import type { Cron, CronOptions } from 'croner';
import type { ScheduledJob } from '../model.js';
import { JOB_KINDS, type DaylightRule } from './kinds.js';

export type Schedule =
  | { type: 'cron'; cron: Cron; timeZone: string; daylight: DaylightRule; scheduler: string; fixedTime: boolean }
  | { type: 'interval'; everyMs: number; every: string; anchor?: number }
  | { type: 'once'; at: number };

export type ScheduleReading = { ok: true; schedule: Schedule } | { ok: false; reason: string };

export interface RunList {
  at: string[];
  /** Runs found (anchored schedules) or expected (unanchored intervals). */
  count: number;
  /** More runs fell inside than `at` lists. */
  more: boolean;
  every?: string;
  notes: string[];
}

type JobSchedule = Pick<ScheduledJob, 'kind' | 'schedule' | 'timeZone' | 'startsAt'>;

const MINUTE = 60_000;
const UNIT_MS: Record<string, number> = {
  second: 1000,
  minute: MINUTE,
  hour: 60 * MINUTE,
  day: 1440 * MINUTE,
  week: 7 * 1440 * MINUTE,
  // Months differ in length; only an unanchored count uses this, and it says "about".
  month: 30.436875 * 1440 * MINUTE,
};

/** Reads a job's schedule the way its scheduler does; an expression the scheduler would reject is a reason, not a guess. */
export function readSchedule(job: JobSchedule): ScheduleReading {
  if (!isTimeZone(job.timeZone)) return fail(`unknown time zone "${job.timeZone}"`);
  const info = JOB_KINDS[job.kind];
  const text = job.schedule.trim();
  try {
    switch (info.syntax) {
      case 'cron':
        return readCron(text, job);
      case 'aws':
        return readAws(text, job);
      case 'ncrontab':
        return readNcrontab(text, job);
      case 'recurrence':
        return /^every /.test(text) ? readInterval(text.slice(6), job.startsAt) : readCron(text, job);
    }
  } catch (error) {
    // croner rejects a pattern with a TypeError or RangeError naming the field ("Invalid value for minute: 61").
    if (!(error instanceof TypeError || error instanceof RangeError)) throw error;
    return fail(error.message.replace(/^CronPattern: /, ''));
  }
}

function readCron(text: string, job: JobSchedule): ScheduleReading {
  let pattern = text;
  let timeZone = job.timeZone;
  // CRON_TZ= / TZ= before the fields: honoured by cron implementations and older Kubernetes controllers.
  const prefix = /^(?:CRON_)?TZ=(\S+)\s+(.*)$/.exec(text);
  if (prefix) {
    if (job.timeZone !== 'UTC' && job.timeZone !== prefix[1])
      return fail(`the schedule says ${prefix[1]} but the time zone is set to ${job.timeZone}`);
    timeZone = prefix[1] as string;
    pattern = prefix[2] as string;
    if (!isTimeZone(timeZone)) return fail(`unknown time zone "${timeZone}"`);
  }
  const nickname = pattern.startsWith('@');
  if (!nickname && pattern.split(/\s+/).length !== 5)
    return fail(
      `expected five fields (minute hour day-of-month month day-of-week), found ${pattern.split(/\s+/).length}`,
    );
  return cronSchedule(pattern, job, timeZone, nickname ? {} : { mode: '5-part' });
}

/** AWS: cron(minutes hours day-of-month month day-of-week year), rate(value unit), at(yyyy-mm-ddThh:mm:ss). */
function readAws(text: string, job: JobSchedule): ScheduleReading {
  const call = /^(cron|rate|at)\((.*)\)$/s.exec(text);
  if (!call) return fail('expected cron(…), rate(…) or at(…)');
  const [, name, inner = ''] = call;
  if (name === 'rate') return readInterval(inner, job.startsAt);
  if (name === 'at') {
    if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/.test(inner.trim())) return fail('at() takes yyyy-mm-ddThh:mm:ss');
    const at = localTimeToUtc(inner.trim(), job.timeZone);
    return at ? { ok: true, schedule: { type: 'once', at: Date.parse(at) } } : fail('at() names no valid time');
  }
  const fields = inner.trim().split(/\s+/);
  if (fields.length !== 6)
    return fail(`cron() takes six fields (minutes hours day-of-month month day-of-week year), found ${fields.length}`);
  if ((fields[2] === '?') === (fields[4] === '?'))
    return fail('cron(): exactly one of day-of-month and day-of-week must be "?"');
  // Seconds first for croner; day-of-week counts 1 = Sunday, as in Quartz; `0/15` steps from a number.
  return cronSchedule(`0 ${fields.join(' ')}`, job, job.timeZone, {
    mode: '7-part',
    alternativeWeekdays: true,
    sloppyRanges: true,
  });
}

/** Azure Functions: six fields, seconds first, or an `hh:mm:ss` interval (App Service plans). */
function readNcrontab(text: string, job: JobSchedule): ScheduleReading {
  const span = /^(?:(\d+)\.)?(\d\d):(\d\d):(\d\d)$/.exec(text);
  if (span) {
    const [, days = '0', hours, minutes, seconds] = span;
    const ms = ((Number(days) * 24 + Number(hours)) * 60 + Number(minutes)) * MINUTE + Number(seconds) * 1000;
    if (ms === 0) return fail('an interval of zero');
    return { ok: true, schedule: interval(ms, formatSpan(ms), job.startsAt) };
  }
  const count = text.split(/\s+/).length;
  if (count !== 6)
    return fail(`expected six fields (second minute hour day month day-of-week) or hh:mm:ss, found ${count} fields`);
  return cronSchedule(text, job, job.timeZone, { mode: '6-part' });
}

/** `5 minutes`, `1 hour`, `2 Week`: AWS rate() units and Logic Apps frequencies. */
function readInterval(text: string, startsAt: string | undefined): ScheduleReading {
  const match = /^\s*(\d+)\s+([a-z]+?)s?\s*$/i.exec(text);
  const unit = match?.[2]?.toLowerCase() ?? '';
  const step = UNIT_MS[unit];
  const value = Number(match?.[1]);
  if (!match || step === undefined) return fail(`"${text.trim()}" is not an interval (e.g. 5 minutes, 1 hour, 7 days)`);
  if (value <= 0) return fail('an interval of zero');
  const anchor = startsAt === undefined ? undefined : Date.parse(startsAt);
  if (anchor !== undefined && Number.isNaN(anchor)) return fail(`start time "${startsAt}" is not a time`);
  return { ok: true, schedule: interval(value * step, `${value} ${unit}${value === 1 ? '' : 's'}`, startsAt) };
}

function interval(everyMs: number, every: string, startsAt: string | undefined): Schedule {
  return { type: 'interval', everyMs, every, ...(startsAt ? { anchor: Date.parse(startsAt) } : {}) };
}

let CronClass: typeof Cron | undefined;

/** croner, loaded by the first cron schedule read: a check of a stack that declares no scheduled job never needs it. */
function cronEngine(): typeof Cron {
  CronClass ??= (createRequire(import.meta.url)('croner') as { Cron: typeof Cron }).Cron;
  return CronClass;
}

function cronSchedule(pattern: string, job: JobSchedule, timeZone: string, options: CronOptions): ScheduleReading {
  const utc = timeZone === 'UTC' || timeZone === 'Etc/UTC';
  // A fixed UTC offset is several times faster than a zone for croner, and UTC has no daylight saving.
  const cron = new (cronEngine())(pattern, {
    paused: true,
    ...(utc ? { utcOffset: 0 } : { timezone: timeZone }),
    ...options,
  });
  const fields = pattern.split(/\s+/);
  const timeFields = options.mode === '5-part' ? fields.slice(0, 2) : fields.slice(0, 3);
  return {
    ok: true,
    schedule: {
      type: 'cron',
      cron,
      timeZone,
      daylight: JOB_KINDS[job.kind].daylight,
      scheduler: JOB_KINDS[job.kind].label,
      fixedTime: !pattern.startsWith('@') && timeFields.every((field) => /^\d+$/.test(field)),
    },
  };
}

/** The runs in [from, to], at most `limit` listed. */
export function runsBetween(schedule: Schedule, from: Date, to: Date, limit: number): RunList {
  const start = from.getTime();
  const end = to.getTime();
  switch (schedule.type) {
    case 'once': {
      const inside = schedule.at >= start && schedule.at <= end;
      return { at: inside ? [iso(schedule.at)] : [], count: inside ? 1 : 0, more: false, notes: [] };
    }
    case 'interval': {
      if (schedule.anchor === undefined)
        return {
          at: [],
          count: Math.round((end - start) / schedule.everyMs),
          more: false,
          every: schedule.every,
          notes: [],
        };
      const first =
        schedule.anchor + Math.max(0, Math.ceil((start - schedule.anchor) / schedule.everyMs)) * schedule.everyMs;
      const total = first > end ? 0 : Math.floor((end - first) / schedule.everyMs) + 1;
      const at: string[] = [];
      for (let time = first; time <= end && at.length < limit; time += schedule.everyMs) at.push(iso(time));
      return { at, count: total, more: total > at.length, notes: [] };
    }
    case 'cron':
      return cronRuns(schedule, start, end, limit);
  }
}

/** The next `count` runs after `after` (none for an unanchored interval: when it runs is not known). */
export function nextRuns(schedule: Schedule, after: Date, count: number): RunList {
  if (schedule.type === 'interval' && schedule.anchor === undefined)
    return { at: [], count: 0, more: false, every: schedule.every, notes: [] };
  if (schedule.type === 'interval' || schedule.type === 'once') {
    const horizon =
      schedule.type === 'once' ? Math.max(schedule.at, after.getTime()) : after.getTime() + count * schedule.everyMs;
    const runs = runsBetween(schedule, new Date(after.getTime() + 1), new Date(horizon), count);
    return { ...runs, more: false };
  }
  return cronRuns(schedule, after.getTime() + 1, Number.POSITIVE_INFINITY, count, true);
}

function cronRuns(
  schedule: Extract<Schedule, { type: 'cron' }>,
  start: number,
  end: number,
  limit: number,
  stopAtLimit = false,
): RunList {
  const at: number[] = [];
  const notes = new Set<string>();
  let count = 0;
  let more = false;
  const add = (time: number) => {
    if (time < start || time > end) return;
    count++;
    if (at.length < limit) at.push(time);
    else more = true;
  };
  let previous = new Date(start - 1);
  // Past the limit, one more run tells whether there were more; counting them all could take millions of steps.
  while (!more && !(stopAtLimit && at.length >= limit)) {
    const next = schedule.cron.nextRun(previous);
    if (next === null || next.getTime() > end) break;
    previous = next;
    const time = next.getTime();
    if (schedule.timeZone === 'UTC' || schedule.timeZone === 'Etc/UTC') {
      add(time);
      continue;
    }
    const daylight = daylightCase(schedule, time);
    if (daylight?.note) notes.add(daylight.note);
    if (daylight?.skip) continue;
    add(time);
    if (daylight?.twin !== undefined) add(daylight.twin);
  }
  // Past the limit the count stops too: `more` then says "at least this many".
  return { at: at.map(iso), count: more ? at.length : count, more, notes: [...notes] };
}

/**
 * A run on a daylight-saving day: croner moves a run whose local time was skipped to the jump and runs a fixed time
 * that happens twice only the first time (ISC cron); schedulers documented to do otherwise get their own answer.
 */
function daylightCase(
  schedule: Extract<Schedule, { type: 'cron' }>,
  time: number,
): { skip?: boolean; twin?: number; note?: string } | undefined {
  const { timeZone, daylight, scheduler } = schedule;
  const wall = wallClock(time, timeZone);
  if (!schedule.cron.match(new Date(time))) {
    const day = wall.slice(0, 10);
    const gap = `a run at a local time that did not exist on ${day} in ${timeZone} (clocks went forward)`;
    return daylight === 'cron'
      ? { note: `${gap}: listed at ${wall.slice(11, 16)}, when cron runs it` }
      : { skip: true, note: `${gap}: not listed, as the ${scheduler} skips it` };
  }
  if (!schedule.fixedTime) return undefined;
  const shift = (offsetMinutes(time, timeZone) - offsetMinutes(time + 3 * 3_600_000, timeZone)) * MINUTE;
  if (shift <= 0 || wallClock(time + shift, timeZone) !== wall) return undefined;
  const twice = `${wall.slice(11, 16)} happened twice on ${wall.slice(0, 10)} in ${timeZone} (clocks went back)`;
  return daylight === 'kubernetes'
    ? { twin: time + shift, note: `${twice}: listed both times, as the ${scheduler} controller runs it twice` }
    : { note: `${twice}: listed once, the first time, as the scheduler runs it once` };
}

/** `2025-03-09T03:00` in the zone. */
function wallClock(time: number, timeZone: string): string {
  const parts = Object.fromEntries(
    zoneFormat(timeZone)
      .formatToParts(new Date(time))
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

function offsetMinutes(time: number, timeZone: string): number {
  const wall = wallClock(time, timeZone);
  return Math.round((Date.parse(`${wall}:00Z`) - Math.floor(time / MINUTE) * MINUTE) / MINUTE);
}

const formats = new Map<string, Intl.DateTimeFormat>();

function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** A local `yyyy-mm-ddThh:mm:ss` in a zone → the UTC instant (ISO), or undefined when it is not a time. */
export function localTimeToUtc(local: string, timeZone: string): string | undefined {
  if (!isTimeZone(timeZone)) return undefined;
  try {
    return new (cronEngine())(local, { paused: true, timezone: timeZone }).nextRun(new Date(0))?.toISOString();
  } catch (error) {
    if (!(error instanceof TypeError || error instanceof RangeError)) throw error;
    return undefined;
  }
}

/** Whether the IANA database (as this Node.js has it) knows the zone. */
export function isTimeZone(name: string): boolean {
  // Most schedules run in UTC (GitHub Actions' always do): no need to load the zone database to know it.
  if (name === 'UTC' || name === 'Etc/UTC') return true;
  try {
    zoneFormat(name);
    return true;
  } catch {
    return false;
  }
}

function formatSpan(ms: number): string {
  for (const unit of ['day', 'hour', 'minute', 'second'] as const) {
    const size = UNIT_MS[unit] as number;
    if (ms % size === 0) return `${ms / size} ${unit}${ms / size === 1 ? '' : 's'}`;
  }
  return `${ms / 1000} seconds`;
}

function iso(time: number): string {
  return new Date(time).toISOString();
}

function fail(reason: string): ScheduleReading {
  return { ok: false, reason };
}
