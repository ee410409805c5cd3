// Every date and time written in an incident text, with the zone it was written in (or inherited, or assumed).
import { isUtcZone, toUtc, ZONE_AFTER_TIME, zoneLabel } from './zones.js';

const MONTH =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const DATE =
  `(?:(?<iy>\\d{4})-(?<im>\\d\\d)-(?<id>\\d\\d)` +
  `|(?<mm>${MONTH})[ \\t]+(?<md>\\d{1,2})(?:st|nd|rd|th)?(?:,?[ \\t]+(?<my>\\d{4})(?![\\d:]))?` +
  `|(?<dd>\\d{1,2})(?:st|nd|rd|th)?[ \\t]+(?<dm>${MONTH}),?[ \\t]+(?<dy>\\d{4}))`;
const TIME =
  '(?:(?<h>\\d{1,2}):(?<mi>\\d\\d)(?::(?<s>\\d\\d)(?:\\.\\d+)?)?(?:[ \\t]*(?<ap>[ap](?:m\\b|\\.m\\b\\.?)))?|(?<h2>\\d{1,2})[ \\t]*(?<ap2>[ap](?:m\\b|\\.m\\b\\.?)))';
const DATE_TIME = new RegExp(
  `(?<![A-Za-z0-9])(?:${DATE}(?:T|,?[ \\t]*(?:at[ \\t]+|[-–@(][ \\t]*)?))?(?<![\\d:.])${TIME}(?![\\d:])`,
  'gi',
);
const DATE_ONLY = new RegExp(`(?<![A-Za-z0-9])${DATE}(?![\\d:])`, 'gi');
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
// A date written after its time: "00:14 UTC on August 7", "23:40 UTC on 31 December 2024", "10:00 on the 7th",
// "09:00 UTC, Monday 7 August 2023".
const DATE_AFTER = new RegExp(
  `^[ \\t]*,?[ \\t]*(?:on[ \\t]+)?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?[ \\t]+)?(?:the[ \\t]+)?(?:${DATE}|(?<od>\\d{1,2})(?:st|nd|rd|th)(?![\\w:]))`,
  'i',
);
const NEXT_DAY = /^[ \t]*,?[ \t]*(?:on[ \t]+)?(?:the[ \t]+)?(?:next|following)[ \t]+(?:day|morning)\b/i;
// A weekday or "the 7th" standing alone in a sentence: placed next to the anchor.
const DAY_WORD =
  /(?<![A-Za-z0-9])(?:(?<wd>(?:mon|tues|wednes|thurs|fri|satur|sun)day)|on[ \t]+the[ \t]+(?<nth>\d{1,2})(?:st|nd|rd|th))(?![A-Za-z0-9])/gi;
/** A backwards range longer than this once read across midnight is a contradiction, not a late-night outage. */
const MAX_OVERNIGHT_MS = 14 * 3_600_000;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

// What may stand between the two ends of a range: "8:57-9:00am", "from 19:39 to 19:46", "between 21:10 and 21:41",
// "between April 15th, 2024 (09:45 UTC) and April 18th, 2024 (19:10 UTC)" (the time in brackets after its date),
// "began at 19:39 UTC and continued until 19:47 UTC", "21:10 UTC 부터 21:41 UTC 까지".
const RANGE_GAP =
  /^[ \t]*\)?[ \t]*(?:-|–|—|~|to|until|till|through|thru|and|부터)[ \t]*(?:(?:approximately|approx\.|around|about|roughly)[ \t]+)?$/i;
const RANGE_GAP_VERB =
  /^[ \t]*\)?[ \t]*,?[ \t]*and[ \t]+(?:[a-z]+[ \t]+){0,3}?(?:until|till|to)[ \t]+(?:(?:approximately|around|about|roughly)[ \t]+)?$/i;

const DAY_MS = 86_400_000;
/** Times read from one text at most: real write-ups hold tens; reading is then bounded whatever a hostile text holds. */
const MAX_TIMES = 2_000;
/** How far a sentence is followed either way from a time: what a time is about is said near it. */
const SENTENCE_REACH = 500;

export interface LocalDate {
  y: number;
  m: number;
  d: number;
}

export interface TimeMention {
  /** UTC ISO-8601, to the minute (seconds kept when written). */
  at: string;
  index: number;
  end: number;
  written: string;
  zone: string;
  /** written next to the time, taken from the other end of a range, inherited from an earlier time, or assumed UTC. */
  zoneFrom: 'written' | 'range' | 'inherited' | 'assumed';
  /** written with the time, found earlier in the same sentence, or placed next to the anchor. */
  dateFrom: 'written' | 'sentence' | 'anchor';
  range?: 'start' | 'end';
}

export interface TimeRange {
  from: TimeMention;
  to: TimeMention;
}

export interface TimeProblem {
  index: number;
  message: string;
}

export interface Extraction {
  mentions: TimeMention[];
  ranges: TimeRange[];
  /** Zone abbreviations that do not fit their date (EST in July): kept as written, reported. */
  notes: string[];
  /** Statements that contradict themselves (a range that ends before it starts). */
  problems: TimeProblem[];
}

export interface ExtractOptions {
  /** Where undated times belong: the closest calendar day to this instant (e.g. the first status update). */
  anchorMs?: number;
  /** Or this calendar day, when only a date is known. */
  anchorDate?: LocalDate;
  /** For dates written without a year (feeds: "Dec 26, 14:45 UTC"), the year that puts them closest to this. */
  referenceMs?: number;
}

interface Raw {
  index: number;
  end: number;
  date?: Partial<LocalDate> & { m: number; d: number };
  /** Day of month only ("on the 7th"): month and year from the anchor. */
  dayOnly?: number;
  /** "… the next day": one day after the time before it. */
  nextDay?: boolean;
  h: number;
  mi: number;
  s: number;
  ap?: 'am' | 'pm';
  zone?: string;
  zoneFrom?: TimeMention['zoneFrom'];
  partner?: Raw;
  role?: 'start' | 'end';
  resolved?: { ms: number; local: LocalDate; dateFrom: TimeMention['dateFrom'] };
}

export function extractTimes(text: string, options: ExtractOptions = {}): Extraction {
  const raws = scanTimes(text);
  const notes: string[] = [];
  if (raws.length > MAX_TIMES) {
    notes.push(
      `the text holds more than ${MAX_TIMES} times; only the first ${MAX_TIMES} were read (an incident write-up has far fewer)`,
    );
    raws.length = MAX_TIMES;
  }
  const dates = scanDates(text, raws);
  linkRanges(text, raws);
  assignZones(raws);
  const problems: TimeProblem[] = [];
  const mentions: TimeMention[] = [];
  const ranges: TimeRange[] = [];
  const byRaw = new Map<Raw, TimeMention>();
  for (const [i, raw] of raws.entries()) {
    const placed = place(text, raw, raws[i - 1], dates, options, notes);
    if (!placed) continue;
    raw.resolved = placed;
    const zone = raw.zone ?? 'UTC';
    const mention: TimeMention = {
      at: new Date(placed.ms)
        .toISOString()
        .replace(/:00\.000Z$/, ':00Z')
        .replace(/\.000Z$/, 'Z'),
      index: raw.index,
      end: raw.end,
      written: text.slice(raw.index, raw.end),
      zone,
      zoneFrom: raw.zoneFrom ?? 'assumed',
      dateFrom: placed.dateFrom,
      ...(raw.role ? { range: raw.role } : {}),
    };
    mentions.push(mention);
    byRaw.set(raw, mention);
  }
  for (const raw of raws) {
    if (raw.role !== 'start' || !raw.partner) continue;
    const from = byRaw.get(raw);
    const to = byRaw.get(raw.partner);
    if (!from || !to) continue;
    if (to.at < from.at) {
      problems.push({
        index: raw.index,
        message: `"${text.slice(raw.index, Math.min(raw.partner.end, raw.index + 120))}" ends before it starts`,
      });
      continue;
    }
    ranges.push({ from, to });
  }
  return { mentions, ranges, notes, problems };
}

function scanTimes(text: string): Raw[] {
  const raws: Raw[] = [];
  for (const match of text.matchAll(DATE_TIME)) {
    if (raws.length > MAX_TIMES) break;
    const g = match.groups ?? {};
    const h = Number(g.h ?? g.h2);
    const mi = Number(g.mi ?? 0);
    const ap = (g.ap ?? g.ap2)?.toLowerCase().startsWith('p') ? 'pm' : (g.ap ?? g.ap2) ? 'am' : undefined;
    if (mi > 59 || h > 23 || (ap && (h === 0 || h > 12))) continue;
    // A bare "9am" with nothing else is fine; a bare "3:00" inside a version or score is excluded by the lookarounds.
    const date = readDate(g);
    let end = (match.index ?? 0) + match[0].length;
    const raw: Raw = {
      index: match.index ?? 0,
      end,
      h,
      mi,
      s: Number(g.s ?? 0),
      ...(ap ? { ap } : {}),
      ...(date ? { date } : {}),
    };
    const previous = raws.at(-1);
    if (previous && raw.index < previous.end) continue;
    const zone = ZONE_AFTER_TIME.exec(text.slice(end, end + 24));
    // A bare offset only counts in ISO form (2019-02-20T12:00:19-06:00); elsewhere "-10:00" is the end of a range.
    const isoForm = /^\d{4}-\d\d-\d\dT/.test(match[0]);
    if (zone && zone[0].length > 0 && (isoForm || !zone.groups?.offset)) {
      raw.zone = zoneLabel(zone);
      raw.zoneFrom = 'written';
      end += zone[0].length;
      raw.end = end;
    }
    if (!raw.date) {
      const after = DATE_AFTER.exec(text.slice(end, end + 60));
      const written = after ? readDate(after.groups ?? {}) : undefined;
      if (after && (written || after.groups?.od)) {
        if (written) raw.date = written;
        else raw.dayOnly = Number(after.groups?.od);
        raw.end = end + after[0].length;
      } else if (NEXT_DAY.test(text.slice(end, end + 40))) raw.nextDay = true;
    }
    raws.push(raw);
  }
  return raws;
}

function readDate(g: Record<string, string | undefined>): Raw['date'] | undefined {
  if (g.iy) return { y: Number(g.iy), m: Number(g.im), d: Number(g.id) };
  const month = g.mm ?? g.dm;
  if (!month) return undefined;
  const m = MONTHS.indexOf(month.slice(0, 3).toLowerCase()) + 1;
  const year = g.my ?? g.dy;
  return { m, d: Number(g.md ?? g.dd), ...(year ? { y: Number(year) } : {}) };
}

interface DateMention {
  index: number;
  date?: NonNullable<Raw['date']>;
  /** A weekday (0 = Sunday) or a day of the month written without its month. */
  weekday?: number;
  dayOnly?: number;
}

function scanDates(text: string, raws: Raw[]): DateMention[] {
  const dates: DateMention[] = raws
    .filter((raw) => raw.date)
    .map((raw) => ({ index: raw.index, date: raw.date as NonNullable<Raw['date']> }));
  const insideTime = containedIn(raws);
  for (const match of text.matchAll(DATE_ONLY)) {
    const index = match.index ?? 0;
    if (insideTime(index)) continue;
    const date = readDate(match.groups ?? {});
    if (date) dates.push({ index, date });
  }
  const insideTimeAgain = containedIn(raws);
  for (const match of text.matchAll(DAY_WORD)) {
    const index = match.index ?? 0;
    if (insideTimeAgain(index)) continue;
    const weekday = match.groups?.wd ? WEEKDAYS.indexOf(match.groups.wd.toLowerCase()) : -1;
    if (weekday >= 0) dates.push({ index, weekday });
    else if (match.groups?.nth) dates.push({ index, dayOnly: Number(match.groups.nth) });
  }
  return dates.sort((a, b) => a.index - b.index);
}

/** For offsets asked in increasing order: whether each lies inside one of the (ordered, disjoint) times. */
function containedIn(raws: Raw[]): (index: number) => boolean {
  let i = 0;
  return (index) => {
    while (i < raws.length && (raws[i] as Raw).end <= index) i++;
    const raw = raws[i];
    return raw !== undefined && index >= raw.index && index < raw.end;
  };
}

/** The last date written before `index`, by binary search over the dates in text order. */
function dateBefore(dates: DateMention[], index: number): DateMention | undefined {
  let low = 0;
  let high = dates.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((dates[mid] as DateMention).index < index) low = mid + 1;
    else high = mid;
  }
  return dates[low - 1];
}

function linkRanges(text: string, raws: Raw[]): void {
  for (let i = 0; i + 1 < raws.length; i++) {
    const a = raws[i] as Raw;
    const b = raws[i + 1] as Raw;
    if (a.partner) continue;
    const gap = text.slice(a.end, b.index);
    if (!RANGE_GAP.test(gap) && !RANGE_GAP_VERB.test(gap)) continue;
    a.partner = b;
    b.partner = a;
    a.role = 'start';
    b.role = 'end';
    if (!a.ap && b.ap && a.h <= 12) a.ap = to24(a.h, b.ap) > to24(b.h, b.ap) ? 'am' : b.ap;
    if (!b.ap && a.ap && b.h <= 12) b.ap = to24(b.h, a.ap) < to24(a.h, a.ap) && a.ap === 'am' ? 'pm' : a.ap;
    if (!a.zone && b.zone) {
      a.zone = b.zone;
      a.zoneFrom = 'range';
    } else if (!b.zone && a.zone) {
      b.zone = a.zone;
      b.zoneFrom = 'range';
    }
  }
}

/** An unzoned time reads like the zoned times written before it; with none before, it is taken as UTC. */
function assignZones(raws: Raw[]): void {
  let last: string | undefined;
  for (const raw of raws) {
    if (raw.zone) {
      if (raw.zoneFrom === 'written') last = raw.zone;
      continue;
    }
    raw.zone = last ?? 'UTC';
    raw.zoneFrom = last ? 'inherited' : 'assumed';
  }
}

function to24(h: number, ap: 'am' | 'pm' | undefined): number {
  if (!ap) return h;
  if (ap === 'am') return h === 12 ? 0 : h;
  return h === 12 ? 12 : h + 12;
}

function place(
  text: string,
  raw: Raw,
  previous: Raw | undefined,
  dates: DateMention[],
  options: ExtractOptions,
  notes: string[],
): Raw['resolved'] | undefined {
  const zone = raw.zone ?? 'UTC';
  const minutes = to24(raw.h, raw.ap) * 60 + raw.mi;
  const convert = (local: LocalDate) => {
    const reading = toUtc(Date.UTC(local.y, local.m - 1, local.d) + minutes * 60_000 + raw.s * 1000, zone);
    if (reading.mismatch && !notes.includes(reading.mismatch)) notes.push(reading.mismatch);
    return reading.utcMs;
  };

  if (raw.nextDay && previous?.resolved) {
    const local = addDays(previous.resolved.local, 1);
    return { ms: convert(local), local, dateFrom: previous.resolved.dateFrom };
  }
  if (raw.role === 'end' && raw.partner?.resolved && !raw.date && raw.dayOnly === undefined) {
    const start = raw.partner.resolved;
    const ms = convert(start.local);
    // "23:50-00:20", "between 16:10 UTC and 00:05 UTC": a range that runs backwards on the clock ends the next
    // day, as long as that makes a plausible night; a longer one is a contradiction the caller reports.
    if (ms < start.ms) {
      const next = addDays(start.local, 1);
      const nextMs = convert(next);
      if (nextMs - start.ms <= MAX_OVERNIGHT_MS) return { ms: nextMs, local: next, dateFrom: start.dateFrom };
    }
    return { ms, local: start.local, dateFrom: start.dateFrom };
  }
  const reference = options.referenceMs ?? options.anchorMs;
  if (raw.dayOnly !== undefined) {
    const local = nearestDay(reference, options.anchorDate, (day) => day.d === raw.dayOnly, 45);
    if (local) return { ms: convert(local), local, dateFrom: 'sentence' };
  }
  if (raw.date) {
    const year = raw.date.y ?? inferYear(raw.date, minutes, zone, options.referenceMs ?? options.anchorMs);
    if (year === undefined) return undefined;
    const local = { y: year, m: raw.date.m, d: raw.date.d };
    return { ms: convert(local), local, dateFrom: 'written' };
  }
  const sentenceStart = sentenceStartBefore(text, raw.index);
  const before = dateBefore(dates, raw.index);
  const sameSentence = before && before.index >= sentenceStart ? before : undefined;
  if (sameSentence?.date) {
    const year = sameSentence.date.y ?? inferYear(sameSentence.date, minutes, zone, reference);
    if (year !== undefined) {
      const local = { y: year, m: sameSentence.date.m, d: sameSentence.date.d };
      return { ms: convert(local), local, dateFrom: 'sentence' };
    }
  } else if (sameSentence) {
    const wanted = sameSentence;
    const local = nearestDay(
      reference,
      options.anchorDate,
      (day) =>
        wanted.weekday !== undefined
          ? new Date(Date.UTC(day.y, day.m - 1, day.d)).getUTCDay() === wanted.weekday
          : day.d === wanted.dayOnly,
      wanted.weekday !== undefined ? 6 : 45,
    );
    if (local) return { ms: convert(local), local, dateFrom: 'sentence' };
  }
  // A range whose end carries the date ("between 23:50 and 00:20 UTC on 1 January"): the start is that day, or the
  // day before when its clock time is later than the end's.
  const partner = raw.role === 'start' ? raw.partner : undefined;
  if (partner?.date) {
    const year = partner.date.y ?? inferYear(partner.date, minutes, zone, reference);
    if (year !== undefined) {
      const endLocal = { y: year, m: partner.date.m, d: partner.date.d };
      const backwards = to24(raw.h, raw.ap) * 60 + raw.mi > to24(partner.h, partner.ap) * 60 + partner.mi;
      const local = backwards ? addDays(endLocal, -1) : endLocal;
      return { ms: convert(local), local, dateFrom: 'sentence' };
    }
  }
  if (options.anchorMs !== undefined) {
    const anchorDay = new Date(options.anchorMs);
    const base = { y: anchorDay.getUTCFullYear(), m: anchorDay.getUTCMonth() + 1, d: anchorDay.getUTCDate() };
    const candidates = [-1, 0, 1].map((shift) => addDays(base, shift)).map((local) => ({ local, ms: convert(local) }));
    const best = candidates.reduce((a, b) =>
      Math.abs(b.ms - (options.anchorMs as number)) < Math.abs(a.ms - (options.anchorMs as number)) ? b : a,
    );
    return { ms: best.ms, local: best.local, dateFrom: 'anchor' };
  }
  if (options.anchorDate) return { ms: convert(options.anchorDate), local: options.anchorDate, dateFrom: 'anchor' };
  return undefined;
}

/** The calendar day nearest the reference (or the anchor date) that passes `test`, looking `span` days either way. */
function nearestDay(
  referenceMs: number | undefined,
  anchorDate: LocalDate | undefined,
  test: (day: LocalDate) => boolean,
  span: number,
): LocalDate | undefined {
  const base =
    referenceMs !== undefined
      ? (() => {
          const day = new Date(referenceMs);
          return { y: day.getUTCFullYear(), m: day.getUTCMonth() + 1, d: day.getUTCDate() };
        })()
      : anchorDate;
  if (!base) return undefined;
  for (let shift = 0; shift <= span; shift++) {
    for (const sign of shift === 0 ? [0] : [-1, 1]) {
      const day = addDays(base, sign * shift);
      if (test(day)) return day;
    }
  }
  return undefined;
}

/** Of the years around the reference, the one that puts the date closest to it (Dec 26 in a January feed is last year's). */
function inferYear(
  date: { m: number; d: number },
  minutes: number,
  zone: string,
  referenceMs: number | undefined,
): number | undefined {
  if (referenceMs === undefined) return undefined;
  const year = new Date(referenceMs).getUTCFullYear();
  const candidates = [year - 1, year, year + 1];
  const distance = (y: number) =>
    Math.abs(toUtc(Date.UTC(y, date.m - 1, date.d) + minutes * 60_000, zone).utcMs - referenceMs);
  return candidates.reduce((best, y) => (distance(y) < distance(best) ? y : best));
}

function addDays(local: LocalDate, days: number): LocalDate {
  const day = new Date(Date.UTC(local.y, local.m - 1, local.d) + days * DAY_MS);
  return { y: day.getUTCFullYear(), m: day.getUTCMonth() + 1, d: day.getUTCDate() };
}

/** Where sentences start and stop in one text, found in one pass and kept for the text last asked about. */
interface SentenceIndex {
  text: string;
  starts: number[];
  stops: number[];
}

/** A few texts are read in turn (a page, its blocks): each keeps its index until a handful of others came after it. */
const recent = new Map<string, SentenceIndex>();

function sentencesOf(text: string): SentenceIndex {
  const known = recent.get(text);
  if (known) return known;
  const starts: number[] = [0];
  const stops: number[] = [];
  const isDigit = (code: number) => code >= 48 && code <= 57;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 10) {
      starts.push(i + 1);
      stops.push(i + 1);
      continue;
    }
    // ".", "!" or "?" before whitespace or the end; a decimal point ("99.9%") and "1. " in a list do not end one.
    if (code === 46 || code === 33 || code === 63) {
      const next = text.charCodeAt(i + 1);
      const endsHere = i + 1 === text.length || next === 32 || next === 9 || next === 10 || next === 13;
      if (endsHere && !(code === 46 && isDigit(text.charCodeAt(i - 1)) && isDigit(next))) stops.push(i + 1);
      if ((next === 32 || next === 9) && !isDigit(text.charCodeAt(i - 1))) starts.push(i + 2);
    }
  }
  const index = { text, starts, stops };
  if (recent.size >= 8) recent.delete(recent.keys().next().value as string);
  recent.set(text, index);
  return index;
}

/** The last value in a sorted list that is at most `bound`, or undefined. */
function atMost(values: number[], bound: number): number | undefined {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((values[mid] as number) <= bound) low = mid + 1;
    else high = mid;
  }
  return values[low - 1];
}

/** The first value in a sorted list that is more than `bound`, or undefined. */
function above(values: number[], bound: number): number | undefined {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((values[mid] as number) <= bound) low = mid + 1;
    else high = mid;
  }
  return values[low];
}

/** Offset where the sentence holding `index` starts (after ". ", "! ", "? " or a line break). */
export function sentenceStartBefore(text: string, index: number): number {
  // Sentences longer than this are not sentences (minified text, tables): look no further back.
  const start = atMost(sentencesOf(text).starts, index) ?? 0;
  return Math.max(start, index - SENTENCE_REACH, 0);
}

/** Start and end offsets of the sentence around `index`. */
export function sentenceBounds(text: string, index: number): [number, number] {
  const stop = above(sentencesOf(text).stops, index);
  return [sentenceStartBefore(text, index), Math.min(stop ?? text.length, index + SENTENCE_REACH, text.length)];
}

/** The sentence around `index`, for reading what a time is about. */
export function sentenceAt(text: string, index: number): string {
  const [start, end] = sentenceBounds(text, index);
  return text.slice(start, end).trim();
}

export function isUtcMention(mention: TimeMention): boolean {
  return isUtcZone(mention.zone);
}

/** `LocalDate` from an ISO date string (`2025-03-21`), or undefined. */
export function parseLocalDate(value: string): LocalDate | undefined {
  const match = /^(\d{4})-(\d\d)-(\d\d)/.exec(value);
  return match ? { y: Number(match[1]), m: Number(match[2]), d: Number(match[3]) } : undefined;
}
