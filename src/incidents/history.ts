// The bundled history: years of past incidents per provider, derived as facts from public archives by
// `npm run build:history` (scripts/history/), one folder per provider under history/ with one file per year. Facts
// only — times, components, regions, impact, status, link — with titles and summaries written by the script from those
// facts. A check reads the files of its stack's providers for the years its window touches and nothing else, so the
// cost grows with the stack and the window, not with the history (a 90-day check reads one or two years of 17).
//
// They are read synchronously: a check reads a few small files per provider and can do nothing else until it has
// them. Async reads went through the thread pool and back for each file and left the main thread idle meanwhile, which
// is when V8 finishes its garbage collection: 15 ms for documenso's 14 providers, 3 ms read in place.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IndexError } from '../errors.js';
import type { Incident, IncidentImpact, IncidentStatus, TimePrecision } from '../model.js';

/** 2: one file per provider and year (1 was one file per provider). */
export const HISTORY_SCHEMA_VERSION = 2;
/** What `source` says on every incident that came from the bundled history. */
export const HISTORY_SOURCE = 'history';

/** One past incident as the history file stores it (the build script writes exactly these keys). */
export interface HistoryRecord {
  id: string;
  title: string;
  /** One sentence written from the facts below. */
  summary: string;
  url: string;
  status: IncidentStatus;
  impact: IncidentImpact;
  startedAt: string;
  resolvedAt: string | null;
  /** The impact window the provider stated, where it differs from the page's open and close. */
  impactWindow?: { from: string; to: string; source: string };
  timePrecision: TimePrecision;
  components: string[];
  regions: string[];
}

/** history/<provider>/<year>.json: every record whose span (stated impact included) touches that year. */
export interface HistoryFile {
  schemaVersion: typeof HISTORY_SCHEMA_VERSION;
  provider: string;
  year: number;
  incidents: HistoryRecord[];
}

/** The part of the history a reader needs: what may overlap [since, until], and `context` incidents before it. */
export interface HistoryWindow {
  since: Date;
  until: Date;
  /** Read earlier years too until this many incidents started by `until` (a quiet window still shows recent ones). */
  context?: number;
}

/**
 * How far before a record's earliest time its replay may start, so that an incident starting after `until` still
 * overlaps the window: a lead moves a first-post start earlier by minutes (history/leads.json: 33–76), `--lead` by
 * whatever a user gives, which a week covers with room to spare. Nothing moves an end later.
 */
const LEAD_SLACK_MS = 7 * 24 * 3_600_000;

/** The years a record's span touches, from its earliest stated time to its latest. */
function spanYears(record: HistoryRecord): number[] {
  const times = [record.startedAt, record.resolvedAt, record.impactWindow?.from, record.impactWindow?.to].filter(
    (time): time is string => typeof time === 'string' && time !== '',
  );
  const first = Number(times.reduce((a, b) => (a < b ? a : b)).slice(0, 4));
  const last = Number(times.reduce((a, b) => (a > b ? a : b)).slice(0, 4));
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

/** A provider's records as its year files (written by the build script), newest year first. */
export function historyFiles(provider: string, records: HistoryRecord[]): HistoryFile[] {
  const byYear = new Map<number, HistoryRecord[]>();
  for (const record of records)
    for (const year of spanYears(record)) {
      const list = byYear.get(year);
      if (list) list.push(record);
      else byYear.set(year, [record]);
    }
  return [...byYear]
    .sort(([a], [b]) => b - a)
    .map(([year, incidents]) => ({ schemaVersion: HISTORY_SCHEMA_VERSION, provider, year, incidents }));
}

/**
 * The provider's bundled history as incidents, all of it or what `window` needs; none when it has no folder. An
 * unreadable folder or a damaged year file is named in `problems` and the rest is read; without `problems` it throws
 * IndexError.
 */
export function readHistory(dir: string, provider: string, window?: HistoryWindow, problems?: string[]): Incident[] {
  const folder = join(dir, provider);
  let years: number[];
  try {
    years = readdirSync(folder)
      .filter((name) => /^\d{4}\.json$/.test(name))
      .map((name) => Number(name.slice(0, 4)))
      .sort((a, b) => b - a);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    const failure = new IndexError(`${folder}: ${(error as Error).message}`);
    if (!problems) throw failure;
    problems.push(failure.message);
    return [];
  }
  const last = window ? new Date(window.until.getTime() + LEAD_SLACK_MS).getUTCFullYear() : Number.POSITIVE_INFINITY;
  const first = window ? window.since.getUTCFullYear() : 0;
  const untilTime = window?.until.toISOString() ?? '';
  const merged = new Map<string, HistoryRecord>();
  let before = 0;
  // Newest first: the window's years, then older ones while fewer than `context` incidents started by `until`.
  for (const year of years) {
    if (year > last) continue;
    if (year < first && before >= (window?.context ?? 0)) break;
    let records: HistoryRecord[];
    try {
      records = readYear(folder, provider, year);
    } catch (error) {
      if (!problems || !(error instanceof IndexError)) throw error;
      problems.push(error.message);
      continue;
    }
    for (const record of records) {
      if (merged.has(record.id)) continue;
      merged.set(record.id, record);
      if (window && record.startedAt <= untilTime) before++;
    }
  }
  return [...merged.values()].map((record) => toIncident(provider, record));
}

/** The provider's whole bundled history in figures, whatever part of it a check reads. */
export interface HistoryExtent {
  incidents: number;
  /** Years of the first and last incident's start. */
  fromYear: string;
  toYear: string;
}

/** history/manifest.json's `providers`: each provider's incident count, in all and by year. */
type ManifestEntries = Record<string, { incidents?: number; byYear?: object }>;

const manifests = new Map<string, ManifestEntries | undefined>();

/** From history/manifest.json (written by the same build as the files); undefined where it does not say. */
export function historyExtent(dir: string, provider: string): HistoryExtent | undefined {
  let manifest = manifests.get(dir);
  if (!manifests.has(dir)) {
    try {
      const text = readFileSync(join(dir, 'manifest.json'), 'utf8');
      manifest = (JSON.parse(text) as { providers?: ManifestEntries }).providers;
    } catch {
      manifest = undefined;
    }
    manifests.set(dir, manifest);
  }
  const entry = manifest?.[provider];
  const years = Object.keys(entry?.byYear ?? {})
    .filter((year) => /^\d{4}$/.test(year))
    .sort();
  if (typeof entry?.incidents !== 'number' || years.length === 0) return undefined;
  return { incidents: entry.incidents, fromYear: years[0] as string, toYear: years.at(-1) as string };
}

function readYear(folder: string, provider: string, year: number): HistoryRecord[] {
  const path = join(folder, `${year}.json`);
  let file: HistoryFile;
  try {
    file = JSON.parse(readFileSync(path, 'utf8')) as HistoryFile;
  } catch (error) {
    throw new IndexError(`${path}: damaged bundled history (${(error as Error).message}); ignored`);
  }
  // The files ship with the package and every record is checked against the index schema by the tests; here only
  // the envelope is checked, so a stack of four large providers still loads in a few milliseconds.
  if (
    file?.schemaVersion !== HISTORY_SCHEMA_VERSION ||
    file.provider !== provider ||
    file.year !== year ||
    !Array.isArray(file.incidents)
  )
    throw new IndexError(
      `${path}: not a bundled history of schema version ${HISTORY_SCHEMA_VERSION} for "${provider}" in ${year}; ignored`,
    );
  return file.incidents;
}

export function toIncident(provider: string, record: HistoryRecord): Incident {
  return {
    provider,
    id: record.id,
    title: record.title,
    url: record.url,
    status: record.status,
    impact: record.impact,
    kind: 'incident',
    components: record.components,
    regions: record.regions,
    startedAt: record.startedAt,
    resolvedAt: record.resolvedAt,
    // The summary stands where a status page's posts would: it is the only text the history carries.
    updates: [{ at: record.startedAt, status: 'summary', body: record.summary, components: record.components }],
    ...(record.impactWindow ? { impactWindow: record.impactWindow } : {}),
    timePrecision: record.timePrecision,
    source: HISTORY_SOURCE,
  };
}
