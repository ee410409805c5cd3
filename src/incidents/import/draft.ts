// What a document parser hands on: an incident as the document tells it, before provider, windows and merging.
import type { IncidentImpact, IncidentStatus, IncidentUpdate } from '../../model.js';
import type { StatedDuration } from './durations.js';

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
  claims: WindowClaim[];
  durations: Array<Pick<StatedDuration, 'minutes' | 'approximate' | 'written'>>;
  /** Zone assumptions and oddities, reported with the incident. */
  notes: string[];
  /** Where the document lists affected services, read for the catalog's component names. */
  componentText?: string;
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

const STATUS_WORDS: Array<[RegExp, IncidentStatus]> = [
  [/^post[- ]?mortem/i, 'postmortem'],
  [/^resolved|^closed/i, 'resolved'],
  [/^monitoring/i, 'monitoring'],
  [/^identified/i, 'identified'],
  [/^investigating/i, 'investigating'],
  [/^completed/i, 'completed'],
  [/^in[ _]progress/i, 'in_progress'],
  [/^verifying/i, 'verifying'],
  [/^scheduled/i, 'scheduled'],
];

/** A status label as status pages write it ("Resolved", "In progress"); undefined for "Update" and the like. */
export function statusFromLabel(label: string): IncidentStatus | undefined {
  return STATUS_WORDS.find(([pattern]) => pattern.test(label.trim()))?.[1];
}

/** The status an update's own words imply, for updates that carry no label. */
export function statusFromText(body: string): string {
  if (/\b(?:is|been|considered|now|as) (?:fully )?resolved\b|\bresolved\b.{0,20}$|해결/i.test(body)) return 'resolved';
  if (/\bmonitor(?:ing)?\b|지켜/i.test(body)) return 'monitoring';
  if (/\bidentified\b/i.test(body)) return 'identified';
  if (/\binvestigat|조사/i.test(body)) return 'investigating';
  return 'update';
}
