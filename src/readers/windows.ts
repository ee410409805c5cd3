// Status window, stated impact window and replay window of a drafted incident, and where they disagree.
import type { Incident, TimeWindow } from '../model.js';
import { replayWindow } from '../replay.js';
import { formatDuration } from '../time.js';
import type { DraftIncident, WindowClaim } from './draft.js';
import { isClosedStatus } from './status.js';
import { byText } from '../text-order.js';

/** Disagreements up to this many minutes are rounding, not news. */
export const TOLERANCE_MINUTES = 5;

export interface Windows {
  startedAt: string;
  resolvedAt: string | null;
  impactWindow?: TimeWindow;
  conflicts: string[];
}

/** Throws nothing: a document with neither times nor a date is rejected by the caller before this. */
export function computeWindows(draft: DraftIncident): Windows {
  const live = draft.updates.filter((update) => update.status !== 'postmortem').sort((a, b) => byText(a.at, b.at));
  const conflicts = [...draft.notes];
  const statusFrom = draft.startedAt ?? live[0]?.at;
  const closed =
    draft.updates.some((update) => isClosedStatus(update.status)) ||
    (draft.status !== undefined && isClosedStatus(draft.status));
  const statusTo = draft.resolvedAt !== undefined ? draft.resolvedAt : closed ? (live.at(-1)?.at ?? null) : null;

  const impactClaims = credibleClaims(
    draft.claims.filter((claim) => claim.kind === 'impact'),
    draft,
    statusFrom,
    statusTo ?? live.at(-1)?.at ?? statusFrom,
    conflicts,
  );
  const impactFrom = earliest(impactClaims.map((claim) => claim.from));
  const impactTo = latest(impactClaims.map((claim) => claim.to));

  let startedAt = statusFrom ?? impactFrom;
  let resolvedAt = statusTo ?? (statusFrom === undefined && closed ? (impactTo ?? null) : statusTo);
  if (startedAt === undefined && draft.dateOnly) {
    // No times at all: the document's own date is the only honest window, so the whole day it names.
    startedAt = `${draft.dateOnly}T00:00:00Z`;
    resolvedAt = new Date(Date.parse(startedAt) + 86_400_000).toISOString().replace('.000Z', 'Z');
    conflicts.push(
      `noTimes: the document gives the date ${draft.dateOnly} but no times; the window is that whole UTC day`,
    );
  }
  if (startedAt === undefined) throw new Error('computeWindows needs a time or a date');
  if (resolvedAt === null && statusFrom === undefined && impactTo !== undefined) resolvedAt = impactTo;

  // A maintenance's announced window is data; the text announcing it only repeats it.
  const impactWindow =
    draft.scheduled && draft.scheduled.to > draft.scheduled.from
      ? { ...draft.scheduled, source: 'scheduled maintenance window' }
      : impactWindowOf(impactClaims, impactFrom, impactTo, startedAt, resolvedAt ?? live.at(-1)?.at);
  if (impactFrom !== undefined && impactTo !== undefined && impactFrom > impactTo) {
    conflicts.push(
      `the text has impact ending at ${hm(impactTo)} ("${claimQuote(impactClaims, 'to', impactTo)}") before it began at ${hm(impactFrom)} ("${claimQuote(impactClaims, 'from', impactFrom)}"); no impact window recorded`,
    );
  }

  if (statusFrom !== undefined && impactFrom !== undefined)
    conflicts.push(
      ...compare(
        'impact began',
        impactFrom,
        claimQuote(impactClaims, 'from', impactFrom),
        'the first status update',
        statusFrom,
      ),
    );
  if (statusTo && impactTo !== undefined)
    conflicts.push(
      ...compare(
        'impact ended',
        impactTo,
        claimQuote(impactClaims, 'to', impactTo),
        'the status page resolved it',
        statusTo,
      ),
    );
  conflicts.push(...claimSpread(impactClaims));

  const resolvedUpdate = live.find((update) => isClosedStatus(update.status));
  const lastLive = live.at(-1);
  if (resolvedUpdate && lastLive && minutesBetween(resolvedUpdate.at, lastLive.at) > TOLERANCE_MINUTES) {
    conflicts.push(
      `the status page marked it resolved at ${hm(resolvedUpdate.at)} but kept posting updates until ${hm(lastLive.at)}`,
    );
  }

  const replay = replayWindow({
    startedAt,
    resolvedAt,
    updates: draft.updates,
    ...(impactWindow ? { impactWindow } : {}),
  } as Incident);
  for (const claim of draft.claims.filter((item) => item.kind === 'stated')) {
    if (claim.from && minutesBetween(claim.from, replay.from) > TOLERANCE_MINUTES) {
      conflicts.push(
        `the document's stated window ${span(claim.from, claim.to)} ("${claim.quote}") starts ${formatDuration(Math.abs(Date.parse(claim.from) - Date.parse(replay.from)))} ${claim.from > replay.from ? 'after' : 'before'} the earliest credible start (${hm(replay.from)})`,
      );
    }
    if (claim.to && replay.to && minutesBetween(claim.to, replay.to) > TOLERANCE_MINUTES) {
      conflicts.push(
        `the document's stated window ${span(claim.from, claim.to)} ends ${formatDuration(Math.abs(Date.parse(claim.to) - Date.parse(replay.to)))} ${claim.to > replay.to ? 'after' : 'before'} the latest credible end (${hm(replay.to)})`,
      );
    }
  }
  conflicts.push(...durationConflicts(draft, { statusFrom, statusTo, impactWindow, replay }));
  return { startedAt, resolvedAt, ...(impactWindow ? { impactWindow } : {}), conflicts: [...new Set(conflicts)] };
}

/** A stated window within this of the posts is kept as written (a retroactive post comes hours after the impact). */
const NEAR_POSTS_MS = 12 * 3_600_000;
/**
 * Farther, a window stated with both ends is another episode the write-up tells (an earlier period of impact, a
 * recurrence the next day) within three days; a start or an end stated alone is a long degradation within two weeks
 * ("between August 21 and September 2"). Beyond those, it is a date typed wrong or another incident's, and not kept.
 */
const EPISODE_MS = 3 * 86_400_000;
const ONE_SIDE_MS = 14 * 86_400_000;
/** A re-dated window must come this near the posts. */
const REDATED_NEAR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * The impact claims a replay can trust. A write-up that dates its window on another day than its own posts (the wrong
 * year, month or day typed: "On February 18" in a resolution posted on 18 August) is re-dated by whole days to where
 * the posts put it when no other window it states is near them and the shift lands it on them; a window too far to be
 * an episode of this incident is not kept. Either way a note says so, so no window runs for months between the text's
 * date and the posts'. Where the platform publishes the impact window as data (`draft.windowIsData`: Google Cloud's
 * begin and end), a claim outside it is a time read under another day's heading of a long report, and is not kept.
 */
function credibleClaims(
  claims: WindowClaim[],
  draft: DraftIncident,
  postsFrom: string | undefined,
  postsTo: string | undefined,
  conflicts: string[],
): WindowClaim[] {
  if (postsFrom === undefined || draft.postsAreDates) return claims;
  const from = Date.parse(postsFrom);
  const to = Math.max(from, Date.parse(postsTo ?? postsFrom));
  const gap = (a: number, b: number) => Math.max(0, a - to, from - b);
  const bounds = (claim: WindowClaim): [number, number] => [
    Date.parse(claim.from ?? (claim.to as string)),
    Date.parse(claim.to ?? (claim.from as string)),
  ];
  const isNear = (claim: WindowClaim) => {
    const [a, b] = bounds(claim);
    return !Number.isFinite(a) || !Number.isFinite(b) || gap(a, b) <= NEAR_POSTS_MS;
  };
  const anyNear = claims.some(isNear);
  const out: WindowClaim[] = [];
  for (const claim of claims) {
    if (isNear(claim)) {
      out.push(claim);
      continue;
    }
    const [a, b] = bounds(claim);
    const written = dated(claim.from, claim.to);
    const posts = dated(postsFrom, postsTo);
    const twoSided = claim.from !== undefined && claim.to !== undefined;
    const shift = [Math.round((from - a) / DAY_MS), Math.round((to - b) / DAY_MS)]
      .flatMap((d) => [d - 1, d, d + 1])
      .filter((d) => d !== 0)
      .reduce((best, d) =>
        gap(a + d * DAY_MS, b + d * DAY_MS) < gap(a + best * DAY_MS, b + best * DAY_MS) ? d : best,
      );
    if (twoSided && !anyNear && gap(a + shift * DAY_MS, b + shift * DAY_MS) <= REDATED_NEAR_MS) {
      const moved = (iso: string) => `${new Date(Date.parse(iso) + shift * DAY_MS).toISOString().slice(0, 19)}Z`;
      const redated: WindowClaim = { ...claim, from: moved(claim.from as string), to: moved(claim.to as string) };
      conflicts.push(
        `the text dates the impact window ${written} ("${claim.quote}"), ${Math.abs(shift)} day${Math.abs(shift) === 1 ? '' : 's'} from the status page's posts (${posts}); re-dated to ${dated(redated.from, redated.to)}`,
      );
      out.push(redated);
      continue;
    }
    if (gap(a, b) <= (twoSided ? EPISODE_MS : ONE_SIDE_MS)) {
      out.push(claim);
      continue;
    }
    conflicts.push(
      `the text dates the impact window ${written} ("${claim.quote}"), too far from the status page's posts (${posts}) to be this incident's; not kept`,
    );
  }
  if (!draft.windowIsData) return out;
  const end = draft.resolvedAt ? Date.parse(draft.resolvedAt) : undefined;
  const slack = TOLERANCE_MINUTES * 60_000;
  return out.filter((claim) => {
    const early = claim.from !== undefined && Date.parse(claim.from) < from - slack;
    const late = claim.to !== undefined && end !== undefined && Date.parse(claim.to) > end + slack;
    if (!early && !late) return true;
    conflicts.push(
      `the text gives an impact window ${dated(claim.from, claim.to)} ("${claim.quote}") outside the one the provider publishes as data (${dated(postsFrom, draft.resolvedAt)}); not kept`,
    );
    return false;
  });
}

function compare(what: string, claimed: string, quote: string, against: string, status: string): string[] {
  const delta = (Date.parse(claimed) - Date.parse(status)) / 60_000;
  if (Math.abs(delta) <= TOLERANCE_MINUTES) return [];
  const message = `${what} ${hm(claimed)} ("${quote}"), ${formatDuration(Math.abs(delta) * 60_000)} ${delta < 0 ? 'before' : 'after'} ${against} (${hm(status)})`;
  const hours = Math.round(Math.abs(delta) / 60);
  // Impact normally precedes the first post; an impact start a whole number of hours after it smells of a zone slip
  // (no two clocks are more than 14 hours apart: days between them are no slip).
  if (
    what === 'impact began' &&
    delta > 0 &&
    hours >= 1 &&
    hours <= 14 &&
    Math.abs(Math.abs(delta) - hours * 60) <= TOLERANCE_MINUTES
  ) {
    return [`${message}; exactly ${hours} h apart, so one of the two may be in the wrong time zone`];
  }
  return [message];
}

/** Two statements of the impact window that disagree by more than the tolerance. */
function claimSpread(claims: WindowClaim[]): string[] {
  // Pairs are compared, so only the first ranges a text states are: a document is not a list of thousands of windows.
  const ranges = claims.filter((claim) => claim.from && claim.to).slice(0, 50);
  const out: string[] = [];
  for (let i = 0; i < ranges.length; i++) {
    for (let j = i + 1; j < ranges.length; j++) {
      const a = ranges[i] as WindowClaim;
      const b = ranges[j] as WindowClaim;
      // Disjoint ranges are phases of one outage ("8:57-9:00", "9:30-10:00"); overlapping ones restate the same window.
      const overlap = (a.from as string) <= (b.to as string) && (b.from as string) <= (a.to as string);
      if (!overlap) continue;
      if (
        minutesBetween(a.from as string, b.from as string) > TOLERANCE_MINUTES ||
        minutesBetween(a.to as string, b.to as string) > TOLERANCE_MINUTES
      ) {
        out.push(
          `the text gives two impact windows: ${span(a.from, a.to)} ("${a.quote}") and ${span(b.from, b.to)} ("${b.quote}")`,
        );
      }
    }
  }
  return out;
}

interface Measured {
  statusFrom?: string;
  statusTo?: string | null;
  impactWindow?: TimeWindow;
  replay: { from: string; to: string | null };
}

/** A stated duration must fit at least one window the document gives; otherwise say which ones it does not fit. */
function durationConflicts(draft: DraftIncident, measured: Measured): string[] {
  const windows: Array<[string, string, string]> = [];
  if (measured.impactWindow) windows.push(['impact', measured.impactWindow.from, measured.impactWindow.to]);
  if (measured.statusFrom && measured.statusTo) windows.push(['status', measured.statusFrom, measured.statusTo]);
  for (const claim of draft.claims.filter((item) => item.from && item.to).slice(0, 50))
    windows.push([claim.kind === 'stated' ? 'stated' : 'impact', claim.from as string, claim.to as string]);
  if (measured.replay.to) windows.push(['replay', measured.replay.from, measured.replay.to]);
  const out: string[] = [];
  const seen = new Set<number>();
  for (const duration of draft.durations) {
    if (seen.has(duration.minutes) || windows.length === 0 || seen.size >= 50) continue;
    seen.add(duration.minutes);
    const tolerance = duration.approximate ? Math.max(15, duration.minutes * 0.1) : TOLERANCE_MINUTES;
    const fits = windows.some(([, from, to]) => Math.abs(minutesBetween(from, to) - duration.minutes) <= tolerance);
    if (fits) continue;
    const described = [
      ...new Map(
        windows.map(([name, from, to]) => [
          `${name} ${span(from, to)}`,
          formatDuration(Date.parse(to) - Date.parse(from)),
        ]),
      ).entries(),
    ]
      .map(([name, length]) => `${name} is ${length}`)
      .join(', ');
    out.push(
      `stated duration ${formatDuration(duration.minutes * 60_000)} ("${duration.written}") fits none of the document's windows: ${described}`,
    );
  }
  return out;
}

/**
 * The text may state only one side ("errors began at 23:41", "restored by 8:24AM ET"); the other side then comes from
 * the status page, and the source says so.
 */
function impactWindowOf(
  claims: WindowClaim[],
  from: string | undefined,
  to: string | undefined,
  statusFrom: string,
  statusTo: string | undefined,
): TimeWindow | undefined {
  if (from === undefined && to === undefined) return undefined;
  const start = from ?? statusFrom;
  const end = to ?? statusTo ?? start;
  if (start > end) return undefined;
  const borrowed =
    from === undefined
      ? "; start: the status page's first update"
      : to === undefined
        ? "; end: the status page's resolution"
        : '';
  return { from: start, to: end, source: `${impactSource(claims)}${borrowed}`.slice(0, 700) };
}

function impactSource(claims: WindowClaim[]): string {
  return `text: ${[...new Set(claims.map((claim) => `"${claim.quote}"`))].join('; ')}`.slice(0, 600);
}

function claimQuote(claims: WindowClaim[], side: 'from' | 'to', value: string): string {
  return claims.find((claim) => claim[side] === value)?.quote ?? '';
}

function earliest(values: Array<string | undefined>): string | undefined {
  return values.filter((value): value is string => value !== undefined).sort()[0];
}

function latest(values: Array<string | undefined>): string | undefined {
  return values
    .filter((value): value is string => value !== undefined)
    .sort()
    .at(-1);
}

export function minutesBetween(a: string, b: string): number {
  return Math.abs(Date.parse(a) - Date.parse(b)) / 60_000;
}

function hm(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** Like `span`, with the date always written: a note about dates must show them. */
function dated(from: string | undefined, to: string | undefined | null): string {
  if (!from || !to) return from ? `from ${hm(from)}` : `until ${hm(to ?? '')}`;
  return from.slice(0, 10) === to.slice(0, 10)
    ? `${hm(from).slice(0, 16)}–${hm(to).slice(11)}`
    : `${hm(from)}–${hm(to)}`;
}

function span(from: string | undefined, to: string | undefined | null): string {
  if (!from || !to) return from ? `from ${hm(from)}` : `until ${hm(to ?? '')}`;
  return from.slice(0, 10) === to.slice(0, 10)
    ? `${from.slice(11, 16)}–${to.slice(11, 16)} UTC`
    : `${hm(from)}–${hm(to)}`;
}
