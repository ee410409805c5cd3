// Every date and time written in an incident text, with the zone it was written in (or inherited, or assumed).
import { isUtcZone, toUtc, zoneLabel, ZONE_AFTER_TIME } from './zones.js';

const MONTH =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const DATE =
  `(?:(?<iy>\\d{4})-(?<im>\\d\\d)-(?<id>\\d\\d)` +
  `|(?<mm>${MONTH})[ \\t]+(?<md>\\d{1,2})(?:st|nd|rd|th)?(?:,?[ \\t]+(?<my>\\d{4})(?![\\d:]))?` +
  `|(?<dd>\\d{1,2})(?:st|nd|rd|th)?[ \\t]+(?<dm>${MONTH}),?[ \\t]+(?<dy>\\d{4}))`;
const TIME =
  '(?:(?<h>\\d{1,2}):(?<mi>\\d\\d)(?::(?<s>\\d\\d)(?:\\.\\d+)?)?(?:[ \\t]*(?<ap>[ap]\\.?m\\b))?|(?<h2>\\d{1,2})[ \\t]*(?<ap2>[ap]\\.?m\\b))';
const DATE_TIME = new RegExp(
  `(?<![A-Za-z0-9])(?:${DATE}(?:T|,?[ \\t]*(?:at[ \\t]+|[-–@][ \\t]*)?))?(?<![\\d:.])${TIME}(?![\\d:])`,
  'gi',
);
const DATE_ONLY = new RegExp(`(?<![A-Za-z0-9])${DATE}(?![\\d:])`, 'gi');
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

// What may stand between the two ends of a range: "8:57-9:00am", "from 19:39 to 19:46", "between 21:10 and 21:41",
// "began at 19:39 UTC and continued until 19:47 UTC", "21:10 UTC 부터 21:41 UTC 까지".
const RANGE_GAP =
  /^[ \t]*(?:-|–|—|~|to|until|till|through|thru|and|부터)[ \t]*(?:(?:approximately|approx\.|around|about|roughly)[ \t]+)?$/i;
const RANGE_GAP_VERB =
  /^[ \t]*,?[ \t]*and[ \t]+(?:[a-z]+[ \t]+){0,3}?(?:until|till|to)[ \t]+(?:(?:approximately|around|about|roughly)[ \t]+)?$/i;

const DAY_MS = 86_400_000;

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
  const dates = scanDates(text, raws);
  linkRanges(text, raws);
  assignZones(raws);
  const notes: string[] = [];
  const problems: TimeProblem[] = [];
  const mentions: TimeMention[] = [];
  const ranges: TimeRange[] = [];
  const byRaw = new Map<Raw, TimeMention>();
  for (const raw of raws) {
    const placed = place(text, raw, dates, options, notes);
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
      problems.push({ index: raw.index, message: `"${text.slice(raw.index, raw.partner.end)}" ends before it starts` });
      continue;
    }
    ranges.push({ from, to });
  }
  return { mentions, ranges, notes, problems };
}

function scanTimes(text: string): Raw[] {
  const raws: Raw[] = [];
  for (const match of text.matchAll(DATE_TIME)) {
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
  date: NonNullable<Raw['date']>;
}

function scanDates(text: string, raws: Raw[]): DateMention[] {
  const dates: DateMention[] = raws
    .filter((raw) => raw.date)
    .map((raw) => ({ index: raw.index, date: raw.date as NonNullable<Raw['date']> }));
  for (const match of text.matchAll(DATE_ONLY)) {
    const index = match.index ?? 0;
    if (raws.some((raw) => index >= raw.index && index < raw.end)) continue;
    const date = readDate(match.groups ?? {});
    if (date) dates.push({ index, date });
  }
  return dates.sort((a, b) => a.index - b.index);
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

  if (raw.role === 'end' && raw.partner?.resolved && !raw.date) {
    const start = raw.partner.resolved;
    let ms = convert(start.local);
    // "23:50-00:20" crosses midnight; anything else that runs backwards is reported by the caller.
    if (ms < start.ms && to24(raw.partner.h, raw.partner.ap) >= 18 && to24(raw.h, raw.ap) < 6)
      ms = convert(addDays(start.local, 1));
    return { ms, local: start.local, dateFrom: start.dateFrom };
  }
  if (raw.date) {
    const year = raw.date.y ?? inferYear(raw.date, minutes, zone, options.referenceMs ?? options.anchorMs);
    if (year === undefined) return undefined;
    const local = { y: year, m: raw.date.m, d: raw.date.d };
    return { ms: convert(local), local, dateFrom: 'written' };
  }
  const sentenceStart = sentenceStartBefore(text, raw.index);
  const sameSentence = dates.filter((date) => date.index >= sentenceStart && date.index < raw.index).at(-1);
  if (sameSentence) {
    const year =
      sameSentence.date.y ?? inferYear(sameSentence.date, minutes, zone, options.referenceMs ?? options.anchorMs);
    if (year !== undefined) {
      const local = { y: year, m: sameSentence.date.m, d: sameSentence.date.d };
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

/** Offset where the sentence holding `index` starts (after ". ", "! ", "? " or a line break). */
export function sentenceStartBefore(text: string, index: number): number {
  // Sentences longer than this are not sentences (minified text, tables): look no further back.
  for (let i = index - 1; i > 0 && i > index - 2000; i--) {
    const char = text[i];
    if (char === '\n') return i + 1;
    if ((char === ' ' || char === '\t') && /[.!?]/.test(text[i - 1] ?? '') && !/\d/.test(text[i - 2] ?? ''))
      return i + 1;
  }
  return Math.max(0, index - 2000);
}

/** Start and end offsets of the sentence around `index`. */
export function sentenceBounds(text: string, index: number): [number, number] {
  const start = sentenceStartBefore(text, index);
  // Decimal points ("99.9%") and abbreviations with digits do not end a sentence.
  const stop = /[.!?](?=\s|$)|\n/.exec(text.slice(index, index + 2000).replace(/\d[.]\d/g, '000'));
  return [start, stop ? index + stop.index + 1 : Math.min(text.length, index + 2000)];
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
