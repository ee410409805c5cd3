// One page of a Statuspage page's history archive: `GET {page}/history?page=N` with `Accept: application/json`
// answers `{"months": [{"name": "…", "year": …, "incidents": [{"code", "name", "message", "impact", "timestamp"}]}]}`,
// a quarter per page, newest first (undocumented; the GitHub-Incident-History project walked GitHub's whole archive
// this way). Past the end it keeps answering, with empty months dated long ago, so the walker decides where to stop.
import { isRecord, parseJsonText } from '../json-text.js';
import { arr, rec, str } from '../readers/platform.js';
import { ReaderError } from '../readers/types.js';

export interface HistoryEntry {
  /** The incident's code, as `/api/v2/incidents/{code}.json` takes it. */
  code: string;
  impact?: string;
  /** First day of its month (UTC), when the month says which it is. */
  month?: string;
}

export interface HistoryPage {
  entries: HistoryEntry[];
  /** First days of the page's months that could be read (UTC), newest first. */
  months: string[];
  /** Codes that are not a plain id (letters and digits): named, never requested. */
  refused: string[];
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
/** Statuspage codes are 12 characters; incident.io ids are 26-character ULIDs. Anything else is not asked for. */
const CODE = /^[A-Za-z0-9]{6,40}$/;

export function parseHistoryPage(text: string, source: string): HistoryPage {
  const data = parseJsonText(text, source);
  if (!isRecord(data) || !Array.isArray(data.months))
    throw new ReaderError(source, 'not a Statuspage history page (no "months" list)', 1);
  const entries: HistoryEntry[] = [];
  const months: string[] = [];
  const refused: string[] = [];
  for (const raw of arr(data.months)) {
    const month = rec(raw);
    const start = monthStart(month);
    if (start) months.push(start);
    for (const item of arr(month.incidents)) {
      const incident = rec(item);
      const code = str(incident.code);
      if (code === undefined) continue;
      if (!CODE.test(code)) {
        refused.push(code.slice(0, 60));
        continue;
      }
      const impact = str(incident.impact);
      entries.push({ code, ...(impact ? { impact } : {}), ...(start ? { month: start } : {}) });
    }
  }
  return { entries, months, refused };
}

/** `{name: "August", year: 2023}`, `{name: "August 2023"}` or `{month: 8, year: 2023}` → `2023-08-01`. */
function monthStart(month: Record<string, unknown>): string | undefined {
  const name = (str(month.name) ?? '').trim().toLowerCase();
  const yearInName = /\b(\d{4})\b/.exec(name)?.[1];
  const year = Number(str(month.year) ?? yearInName);
  const byName = MONTHS.findIndex((full) => name.startsWith(full.slice(0, 3)));
  const byNumber = Number(str(month.month));
  const index =
    byName >= 0 ? byName : Number.isInteger(byNumber) && byNumber >= 1 && byNumber <= 12 ? byNumber - 1 : -1;
  if (!Number.isInteger(year) || year < 1900 || year > 2200 || index < 0) return undefined;
  return `${year}-${String(index + 1).padStart(2, '0')}-01`;
}
