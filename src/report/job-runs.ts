// How every human-facing format words a job's runs inside a replay band, so they all say the same thing.
import type { JobRuns, ReplayBand } from '../model.js';
import { JOB_KINDS } from '../jobs/kinds.js';

/** Times listed before "and N more": a minutely job must not print thousands of lines. */
export const TIMES_SHOWN = 4;

/** `cron 30 20 * * * (UTC)`, `cron(0 12 ? * MON-FRI *) (UTC)`, `NCRONTAB 0 30 1 * * * (UTC)`. */
export function scheduleLabel(runs: Pick<JobRuns, 'kind' | 'schedule' | 'timeZone'>): string {
  const syntax = JOB_KINDS[runs.kind].syntax;
  const written =
    syntax === 'aws' || runs.schedule.startsWith('every ')
      ? runs.schedule
      : `${syntax === 'ncrontab' ? 'NCRONTAB' : 'cron'} ${runs.schedule}`;
  return `${written} (${runs.timeZone === 'Etc/UTC' ? 'UTC' : runs.timeZone})`;
}

/** `ran 20:30`, `ran 20:30, 20:45, 21:00, 21:15 and 3 more`, `about 21 runs, every 5 minutes (times not known)`. */
export function ranLabel(runs: JobRuns, band: Pick<ReplayBand, 'from' | 'to'>): string {
  if (runs.every !== undefined)
    return runs.count > 0
      ? `about ${runs.count} run${runs.count === 1 ? '' : 's'}, every ${runs.every} (times not known)`
      : `may have run once, every ${runs.every} (time not known)`;
  const sameDay = band.to !== null && band.from.slice(0, 10) === band.to.slice(0, 10);
  const time = (iso: string) => (sameDay ? iso.slice(11, 16) : `${iso.slice(5, 10)} ${iso.slice(11, 16)}`);
  const shown = runs.at.slice(0, TIMES_SHOWN).map(time).join(', ');
  const shownCount = Math.min(runs.at.length, TIMES_SHOWN);
  // An anchored interval knows its total; a cron listing cut at its limit knows only that there were more.
  const tail =
    runs.count > runs.at.length || !runs.more
      ? runs.count > shownCount
        ? ` and ${runs.count - shownCount} more`
        : ''
      : ` and more (over ${runs.count} in this window)`;
  return `ran ${shown}${tail}`;
}

/** `runs on GitHub, in this window's incidents` or `reaches Stripe, AWS`, from the catalog names. */
export function reachLabel(runs: JobRuns, band: ReplayBand, name: (id: string) => string): string {
  if (runs.providers.length === 0) return '';
  const hit = runs.providers.filter((provider) => band.providers.includes(provider));
  const listed = (hit.length > 0 ? hit : runs.providers).map(name).join(', ');
  return hit.length > 0 ? `uses ${listed}, hit in this window` : `uses ${listed}`;
}
