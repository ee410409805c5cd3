// The bundled history: years of past incidents per provider, derived as facts from public archives by
// `npm run build:history` (scripts/history/), one file per provider under history/. Facts only — times, components,
// regions, impact, status, link — with titles and summaries written by the script from those facts. A check reads
// the files of its stack's providers and nothing else, so the cost grows with the stack, not with the history.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { IndexError } from '../errors.js';
import type { Incident, IncidentImpact, IncidentStatus, TimePrecision } from '../model.js';

export const HISTORY_SCHEMA_VERSION = 1;
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

export interface HistoryFile {
  schemaVersion: typeof HISTORY_SCHEMA_VERSION;
  provider: string;
  incidents: HistoryRecord[];
}

/** The provider's bundled history as incidents; none when it has no file. Throws IndexError for a damaged one. */
export async function readHistory(dir: string, provider: string): Promise<Incident[]> {
  const path = join(dir, `${provider}.json`);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new IndexError(`${path}: ${(error as Error).message}`);
  }
  let file: HistoryFile;
  try {
    file = JSON.parse(text) as HistoryFile;
  } catch (error) {
    throw new IndexError(`${path}: damaged bundled history (${(error as Error).message}); ignored`);
  }
  // The file ships with the package and every record is checked against the index schema by the tests; here only
  // the envelope is checked, so a stack of four large providers still loads in a few milliseconds.
  if (file?.schemaVersion !== HISTORY_SCHEMA_VERSION || file.provider !== provider || !Array.isArray(file.incidents))
    throw new IndexError(
      `${path}: not a bundled history of schema version ${HISTORY_SCHEMA_VERSION} for "${provider}"; ignored`,
    );
  return file.incidents.map((record) => toIncident(provider, record));
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
