// Time arguments and durations. Everything is UTC; a time written without a zone is read as UTC, not local.
import { UsageError } from './errors.js';
import { cleanLine } from './sanitize.js';

const DURATION = /^(\d+(?:\.\d+)?)\s*(m|min|h|d|w|y)$/i;
const UNIT_MS: Record<string, number> = {
  m: 60_000,
  min: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
  y: 365 * 86_400_000,
};

/** `30d`, `12h`, `2w` (that long before `now`), or an ISO date/time (`2021-08-10`, `2021-08-10T19:00Z`). */
export function parseTimeArg(value: string, now: Date, flag: string): Date {
  const trimmed = value.trim();
  const duration = DURATION.exec(trimmed);
  if (duration) {
    const date = new Date(now.getTime() - Number(duration[1]) * (UNIT_MS[(duration[2] ?? 'd').toLowerCase()] ?? 0));
    if (inRange(date)) return date;
    throw new UsageError(`${flag} "${cleanLine(value, 40)}" reaches back before 1970; give a date instead`);
  }
  if (trimmed === 'now') return now;
  const iso = /^(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d)(?:\.\d+)?)?)?(Z|[+-]\d\d:?\d\d)?$/i.exec(trimmed);
  if (iso) {
    // Date.parse rolls 2021-02-30 over into March 2; a date that does not exist is refused instead.
    const [, year, month, day, hour = '0', minute = '0', second = '0'] = iso;
    if (!isCalendarTime(Number(year), Number(month), Number(day), Number(hour), Number(minute), Number(second)))
      throw new UsageError(`${flag} "${cleanLine(value, 40)}" is not a real date or time`);
    const dateOnly = trimmed.length === 10;
    const normalized = trimmed.replace(' ', 'T') + (dateOnly ? 'T00:00:00Z' : iso[7] ? '' : 'Z');
    const date = new Date(normalized);
    if (inRange(date)) return date;
  }
  throw new UsageError(
    `${flag} "${value}" is not a time: use an ISO date or time (2021-08-10, 2021-08-10T19:00Z) or a duration back from now (30d, 12h, 2w)`,
  );
}

/** A window bound downstack can work with: a valid time from 1970 up to the year 9999. */
function inRange(date: Date): boolean {
  const time = date.getTime();
  return Number.isFinite(time) && time >= 0 && time < Date.UTC(10000, 0, 1);
}

function isCalendarTime(year: number, month: number, day: number, hour: number, minute: number, second: number) {
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second
  );
}

/** A length of time (`45m`, `1h`, `1.5h`, `0`) in minutes, for options such as `--lead`. */
export function parseDurationArg(value: string, flag: string): number {
  const trimmed = value.trim();
  if (trimmed === '0') return 0;
  const duration = DURATION.exec(trimmed);
  const minutes = duration ? (Number(duration[1]) * (UNIT_MS[(duration[2] ?? 'm').toLowerCase()] ?? 0)) / 60_000 : NaN;
  if (minutes <= 24 * 60) return minutes;
  if (duration) throw new UsageError(`${flag} "${value}" is longer than a day; a lead is minutes to hours`);
  throw new UsageError(
    `${flag} "${value}" is not a length of time: use minutes or hours (30m, 1h, 1.5h) or 0 for none`,
  );
}

/** `1h 39m`, `2d 3h`, `45m`, `<1m`. */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return '<1m';
  const minutes = Math.round(ms / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  return [days ? `${days}d` : '', hours ? `${hours}h` : '', rest ? `${rest}m` : ''].filter(Boolean).join(' ') || '0m';
}

/** `2021-08-10 19:39 UTC`: to the minute, which is what a replay needs. */
export function formatUtc(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** A range that does not repeat the date when both ends fall on the same day. */
export function formatRange(from: string, to: string | null): string {
  if (to === null) return `${formatUtc(from)} → ongoing`;
  if (from.slice(0, 10) === to.slice(0, 10))
    return `${from.slice(0, 10)} ${from.slice(11, 16)} → ${to.slice(11, 16)} UTC`;
  return `${formatUtc(from)} → ${formatUtc(to)}`;
}

/** `3 h ago`, `12 days ago`. */
export function formatAgo(iso: string, now: Date): string {
  const ms = now.getTime() - Date.parse(iso);
  // A sync run by this very command (check --sync) finishes after the command took its clock reading.
  if (ms < -60_000) return 'in the future';
  if (ms < 60_000) return 'just now';
  if (ms < 3_600_000) return `${Math.max(1, Math.round(ms / 60_000))} min ago`;
  if (ms < 2 * 86_400_000) return `${Math.round(ms / 3_600_000)} h ago`;
  return `${Math.round(ms / 86_400_000)} days ago`;
}
