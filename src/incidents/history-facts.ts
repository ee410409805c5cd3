// How `npm run build:history` turns an incident read from a public archive into a bundled-history record: facts only
// (times, components, regions, impact, status, link), with a title and a summary written here from those facts and
// never the provider's own words, and how precise its start is. Also the lead measurement behind history/leads.json.
import type { Incident, TimePrecision } from '../model.js';
import { replayWindow } from '../replay.js';
import { formatDuration } from '../time.js';
import type { HistoryRecord } from './history.js';
import { firstPost, type LeadFigure } from './lead.js';

/** A start within this of the first post is the first post. */
const SAME_POST_MS = 60_000;

/**
 * How far the incident's start can be trusted as the start of impact (see `TimePrecision`): a stated impact window
 * read from the text, a start the platform gives as data (`statesStart`: Google Cloud's `begin`) or that the page set
 * before its first post, or else only the first post.
 */
export function precisionOf(incident: Incident, statesStart: boolean): TimePrecision {
  if (incident.impactWindow) return 'from-text';
  if (statesStart) return 'exact';
  if (Date.parse(incident.startedAt) < Date.parse(firstPost(incident)) - SAME_POST_MS) return 'exact';
  return 'upper-bound';
}

/** The incident as the history stores it; `source` says in our words where a stated window came from. */
export function toHistoryRecord(incident: Incident, precision: TimePrecision, statedBy: string): HistoryRecord {
  const window = replayWindow(incident);
  const components = incident.components;
  const record: HistoryRecord = {
    id: incident.id,
    title: titleOf(components, incident.regions, incident.impact, window),
    summary: summaryOf(incident, window, precision, statedBy),
    url: incident.url,
    status: incident.status,
    impact: incident.impact,
    startedAt: incident.startedAt,
    resolvedAt: incident.resolvedAt,
    timePrecision: precision,
    components,
    regions: incident.regions,
  };
  if (incident.impactWindow)
    record.impactWindow = { from: incident.impactWindow.from, to: incident.impactWindow.to, source: statedBy };
  return record;
}

/**
 * `Actions and API Requests — major, 1h 12m`. Reports put the provider's name before every title (`GitHub ·
 * Actions and API Requests — major, 1h 12m`), so the title does not repeat it.
 */
export function titleOf(
  components: string[],
  regions: string[],
  impact: string,
  window: { from: string; to: string | null },
): string {
  // A record without components reads "Services in eu-west-1" or "Components not named" ("GitHub · Components not
  // named — minor, 36m"), not as if a component were called "No component named".
  const where = regions.length > 0 ? ` in ${listed(regions, 2)}` : '';
  const named =
    components.length > 0 ? `${listed(components, 3)}${where}` : where ? `services${where}` : 'components not named';
  const text = `${named} — ${impact}, ${lengthOf(window)}`;
  return `${text[0]?.toUpperCase() ?? ''}${text.slice(1)}`;
}

function summaryOf(
  incident: Incident,
  window: { from: string; to: string | null },
  precision: TimePrecision,
  statedBy: string,
): string {
  const what = incident.components.length === 0 ? 'An incident naming no component' : listed(incident.components, 8);
  const where = incident.regions.length > 0 ? ` in ${listed(incident.regions, 6)}` : '';
  const span =
    window.to === null
      ? `from ${stamp(window.from)}, still open`
      : `from ${stamp(window.from)} to ${stamp(window.to)} UTC (${lengthOf(window)})`;
  const start =
    precision === 'upper-bound'
      ? 'The start is when the status page first posted; impact may have begun earlier.'
      : precision === 'exact'
        ? 'The start is the impact start the provider gives.'
        : `The times are the impact window ${statedBy}.`;
  return `${what}${where}, ${span}; impact ${incident.impact}. ${start}`;
}

function lengthOf(window: { from: string; to: string | null }): string {
  if (window.to === null) return 'ongoing';
  const ms = Date.parse(window.to) - Date.parse(window.from);
  return ms < 60_000 ? 'one post' : formatDuration(ms);
}

function listed(values: string[], max: number): string {
  if (values.length <= max)
    return values.length <= 1 ? (values[0] ?? '') : `${values.slice(0, -1).join(', ')} and ${values.at(-1)}`;
  return `${values.slice(0, max).join(', ')} and ${values.length - max} more`;
}

function stamp(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

/**
 * Minutes between a stated impact start and the page's first post, where both are known: what a replay window that
 * starts at a first post misses. Undefined when the incident states no start of its own.
 */
export function leadSample(statedStart: string | undefined, posted: string): number | undefined {
  if (!statedStart) return undefined;
  const minutes = (Date.parse(posted) - Date.parse(statedStart)) / 60_000;
  // A stated start a week before the first post is a misread date, not a lead.
  return Number.isFinite(minutes) && Math.abs(minutes) <= 7 * 24 * 60 ? minutes : undefined;
}

/** The lead applied: the median, floored at zero, with the quartiles for the docs. */
export function measureLead(samples: number[], measuredOn: string): LeadFigure | undefined {
  if (samples.length === 0) return undefined;
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
  return {
    minutes: Math.max(0, Math.round(at(0.5))),
    sample: sorted.length,
    p25: Math.round(at(0.25)),
    p75: Math.round(at(0.75)),
    measuredOn,
  };
}

/**
 * Whether a snapshot incident already tells this one (the snapshot's hand-checked windows win): same provider, windows
 * overlapping by at least half of the shorter one, and a component in common where both name some.
 */
export function toldBySnapshot(incident: Incident, snapshot: Incident[]): Incident | undefined {
  const window = replayWindow(incident);
  return snapshot.find((told) => {
    if (told.provider !== incident.provider) return false;
    const other = replayWindow(told);
    const end = (w: { from: string; to: string | null }) => Date.parse(w.to ?? w.from);
    const overlap = Math.min(end(window), end(other)) - Math.max(Date.parse(window.from), Date.parse(other.from));
    const shorter = Math.max(
      60_000,
      Math.min(end(window) - Date.parse(window.from), end(other) - Date.parse(other.from)),
    );
    if (overlap < shorter / 2) return false;
    if (incident.components.length === 0 || told.components.length === 0) return true;
    const names = new Set(told.components.map((name) => name.toLowerCase()));
    return incident.components.some((name) => names.has(name.toLowerCase()));
  });
}
