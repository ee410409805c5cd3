// What a reader hands on: an incident as the document tells it, before provider, windows and merging.
import type { IncidentImpact, IncidentStatus, IncidentUpdate } from '../model.js';
import { readProse } from './text/prose.js';
import type { StatedDuration } from './time/durations.js';
import type { EntryProblem, ReaderContext } from './types.js';
import { byText } from '../text-order.js';

export { statusFromLabel, statusFromText } from './status.js';

/** A window the text states: what the impact was, or (kind "stated") what a reader is told to replay. */
export interface WindowClaim {
  from?: string;
  to?: string;
  kind: 'impact' | 'stated';
  quote: string;
}

export interface ProviderHints {
  /** Text that names the document's owner: title, heading lines, org fields, feed and page names. */
  owners: string[];
  /** URLs in the document (status-page incident links first). */
  urls: string[];
  /** All prose, for counting mentions and spotting upstream causes. */
  text: string;
  /** Statuspage page ids (`page.id`, `page_id`), matched against the catalog's `status.pageId`. */
  pageIds?: string[];
  /** Catalog ids the record names as the upstream cause (incidentlib `domain` with a cloud-provider root cause). */
  upstream?: string[];
}

export interface DraftIncident {
  file: string;
  line: number;
  format: string;
  /** The status page's incident code when known, so the same incident from two sources merges. */
  id?: string;
  title: string;
  url: string;
  status?: IncidentStatus;
  impact?: IncidentImpact;
  kind?: 'incident' | 'maintenance';
  components: string[];
  regions: string[];
  /** UTC; postmortems carry status "postmortem" and never extend the outage. */
  updates: IncidentUpdate[];
  startedAt?: string;
  resolvedAt?: string | null;
  /** Other start times the source gives (an API's created_at next to started_at), for a record that contradicts itself. */
  otherStarts?: string[];
  /** A maintenance's announced window (scheduled_for → scheduled_until). */
  scheduled?: { from: string; to: string };
  claims: WindowClaim[];
  durations: Array<Pick<StatedDuration, 'minutes' | 'approximate' | 'written'>>;
  /** Zone assumptions and oddities, reported with the incident. */
  notes: string[];
  /** Where the document lists affected services, read for the catalog's component names. */
  componentText?: string;
  /** The platform publishes the impact window itself as data (start and end), so text claims outside it are misreads. */
  windowIsData?: boolean;
  /** Its start and end are dates without a time of day (a review's date), too coarse to re-date a stated window by. */
  postsAreDates?: boolean;
  /** The document's date when it has no times at all. */
  dateOnly?: string;
  hints: ProviderHints;
}

export function emptyDraft(file: string, format: string, line = 1): DraftIncident {
  return {
    file,
    line,
    format,
    title: '',
    url: '',
    components: [],
    regions: [],
    updates: [],
    claims: [],
    durations: [],
    notes: [],
    hints: { owners: [], urls: [], text: '' },
  };
}

/** The fields a structured platform payload (JSON API, feed item) gives directly. */
export interface PlatformFields {
  /** The format's name, as `import <format>: <file>` shows it. */
  format: string;
  id: string | undefined;
  title: string | undefined;
  url?: string | undefined;
  status: IncidentStatus;
  impact: IncidentImpact;
  kind?: 'incident' | 'maintenance';
  components?: string[];
  regions?: string[];
  startedAt: string | undefined;
  resolvedAt: string | null | undefined;
  otherStarts?: Array<string | undefined>;
  scheduled?: { from: string; to: string };
  updates?: Array<{ at: string | undefined; status: string; body: string; components?: string[] }>;
  /** `startedAt` and `resolvedAt` are the impact window as the platform publishes it (Google Cloud's begin and end). */
  windowIsData?: boolean;
  /** Its start and end are dates without a time of day, too coarse to re-date a stated window by. */
  postsAreDates?: boolean;
  /** Who published it (page or feed name), for telling an imported document's provider. */
  owner?: string;
  line?: number;
}

/**
 * A structured item as a draft: updates without a time are left out, and the update bodies are read like any prose,
 * so a stated impact ("errors began at 19:39 UTC") counts whether the item came by sync or by import.
 */
export function platformDraft(fields: PlatformFields, context: ReaderContext): DraftIncident | EntryProblem {
  const line = fields.line;
  const title = (fields.title ?? '').trim();
  const id = fields.id?.trim();
  if (!id) return { ...(line ? { line } : {}), entry: title.slice(0, 80), message: 'has no id; skipped' };
  const updates: IncidentUpdate[] = (fields.updates ?? [])
    .filter((update): update is typeof update & { at: string } => typeof update.at === 'string')
    .map((update) => ({
      at: update.at,
      status: update.status,
      body: update.body,
      components: update.components ?? [],
    }))
    .sort((a, b) => byText(a.at, b.at));
  const startedAt = fields.startedAt ?? updates[0]?.at;
  if (!startedAt) return { ...(line ? { line } : {}), entry: title || id, message: 'has no start time; skipped' };
  const draft = emptyDraft(context.source, fields.format, line ?? 1);
  draft.id = id;
  draft.title = title;
  draft.url = fields.url ?? '';
  draft.status = fields.status;
  draft.impact = fields.impact;
  draft.kind = fields.kind ?? 'incident';
  draft.components = [...new Set([...(fields.components ?? []), ...updates.flatMap((update) => update.components)])];
  draft.regions = fields.regions ?? [];
  draft.updates = updates;
  draft.startedAt = startedAt;
  draft.resolvedAt = fields.resolvedAt ?? null;
  const others = (fields.otherStarts ?? []).filter((time): time is string => time !== undefined);
  if (others.length > 0) draft.otherStarts = others;
  if (fields.scheduled) draft.scheduled = fields.scheduled;
  if (fields.windowIsData) draft.windowIsData = true;
  if (fields.postsAreDates) draft.postsAreDates = true;
  const prose = updates
    .map((update) => update.body)
    .filter(Boolean)
    .join('\n\n');
  const reading = readProse(prose, { anchorMs: Date.parse(startedAt) });
  draft.claims = reading.claims;
  draft.durations = reading.durations;
  draft.notes = reading.notes;
  draft.hints = {
    owners: fields.owner ? [fields.owner] : [],
    urls: [context.pageUrl, fields.url].filter((url): url is string => typeof url === 'string' && url !== ''),
    text: `${title}\n${prose}`,
  };
  return draft;
}

/** Splits reader output into drafts and problems. */
export function sortOut(results: Array<DraftIncident | EntryProblem>, problems: EntryProblem[]): DraftIncident[] {
  const drafts: DraftIncident[] = [];
  for (const result of results) {
    if ('format' in result) drafts.push(result);
    else problems.push(result);
  }
  return drafts;
}
