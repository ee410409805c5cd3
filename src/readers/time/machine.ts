// The one normaliser for machine timestamps (JSON fields, feed dates): ISO-8601 with Z or an offset, RFC 822 with a
// numeric or named zone (AWS writes PST/PDT, Azure a bare "Z"), JavaScript's Date#toString (Instatus), epoch numbers.
// Every result has the index's canonical form, `2021-08-10T19:39:00Z`; a time without a zone is no time at all.
import { canonicalTime } from '../../incidents/schema.js';
import { fixedZoneOffset } from './zones.js';

const RFC822 =
  /^(?:[A-Za-z]{3},\s*)?(\d{1,2})\s+([A-Za-z]{3})[a-z]*\s+(\d{4})\s+(\d\d):(\d\d)(?::(\d\d))?\s*([A-Za-z]{1,5}|[+-]\d{4})$/;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
// `Sat Jun 11 2022 18:55:50 GMT+0000 (Coordinated Universal Time)`.
const DATE_TO_STRING =
  /^[A-Za-z]{3}\s+([A-Za-z]{3})\s+(\d{1,2})\s+(\d{4})\s+(\d\d:\d\d(?::\d\d)?)\s+GMT([+-]\d{4})(?:\s*\(.*\))?$/;
const ISO = /^\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?\s*(Z|[+-]\d\d:?\d\d|UTC|GMT)$/i;

/** A machine timestamp with a zone → canonical UTC; undefined for anything else (zoneless, prose, out of range). */
export function machineTime(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.length > 80) return undefined;
  const dateString = DATE_TO_STRING.exec(trimmed);
  const text = dateString
    ? `${dateString[2]} ${dateString[1]} ${dateString[3]} ${dateString[4]} ${dateString[5]}`
    : trimmed;
  const rfc = RFC822.exec(text);
  if (rfc) {
    const [, day, mon, year, hh, mm, ss, zone = ''] = rfc;
    const month = MONTHS.indexOf((mon ?? '').toLowerCase());
    const offset = /^[+-]/.test(zone)
      ? (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3, 5)))
      : fixedZoneOffset(zone.toUpperCase());
    if (month < 0 || offset === undefined) return undefined;
    return checked(
      Date.UTC(Number(year), month, Number(day), Number(hh), Number(mm), Number(ss ?? 0)) - offset * 60_000,
      {
        y: Number(year),
        m: month + 1,
        d: Number(day),
      },
    );
  }
  if (!ISO.test(text)) return undefined;
  const normalized = text.replace(' ', 'T').replace(/\s*(UTC|GMT)$/i, 'Z');
  const ms = Date.parse(normalized);
  return checked(ms, { y: Number(text.slice(0, 4)), m: Number(text.slice(5, 7)), d: Number(text.slice(8, 10)) });
}

/** Epoch seconds or milliseconds (number or decimal string) → canonical UTC. */
export function epochTime(value: unknown, unit: 's' | 'ms'): string | undefined {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(n) || n <= 0) return undefined;
  const ms = unit === 's' ? n * 1000 : n;
  return ms > 8.64e15 ? undefined : canonicalTime(ms);
}

/** Refuses impossible calendar days (Feb 30 would silently become March 2) and instants out of Date's range. */
function checked(ms: number, written: { y: number; m: number; d: number }): string | undefined {
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return undefined;
  const day = new Date(Date.UTC(written.y, written.m - 1, written.d));
  if (day.getUTCMonth() !== written.m - 1 || day.getUTCDate() !== written.d) return undefined;
  return canonicalTime(ms);
}
