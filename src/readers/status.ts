// The one closed-status rule and the status words of every platform mapped onto ours.
import type { Incident, IncidentImpact, IncidentStatus } from '../model.js';

const CLOSED: ReadonlySet<string> = new Set(['resolved', 'postmortem', 'completed', 'cancelled']);

/** A status (ours or a platform's word) that means the incident or maintenance is over. */
export function isClosedStatus(status: string | undefined): boolean {
  return status !== undefined && CLOSED.has(status.toLowerCase().trim());
}

/** Open: no resolution time and a status that does not say it ended. */
export function isOpenIncident(incident: Pick<Incident, 'resolvedAt' | 'status'>): boolean {
  return incident.resolvedAt === null && !isClosedStatus(incident.status);
}

const STATUS_WORDS: Array<[RegExp, IncidentStatus]> = [
  [/^post[- ]?mortem/i, 'postmortem'],
  [/^resolved|^closed|^cancel+ed/i, 'resolved'],
  [/^monitoring/i, 'monitoring'],
  [/^identified/i, 'identified'],
  [/^investigating/i, 'investigating'],
  [/^completed/i, 'completed'],
  [/^in[ _-]?progress/i, 'in_progress'],
  [/^verifying/i, 'verifying'],
  [/^scheduled/i, 'scheduled'],
];

/** A status label as status pages write it ("Resolved", "In progress"); undefined for "Update" and the like. */
export function statusFromLabel(label: string): IncidentStatus | undefined {
  return STATUS_WORDS.find(([pattern]) => pattern.test(label.trim()))?.[1];
}

/** A platform status word mapped onto ours; unknown words count as investigating while open. */
export function normalizeStatus(value: unknown, closed: boolean): IncidentStatus {
  const known = typeof value === 'string' ? statusFromLabel(value) : undefined;
  return known ?? (closed ? 'resolved' : 'investigating');
}

export function normalizeImpact(value: unknown): IncidentImpact {
  const word = typeof value === 'string' ? value.toLowerCase() : '';
  return word === 'none' || word === 'minor' || word === 'major' || word === 'critical' || word === 'maintenance'
    ? word
    : 'unknown';
}

/** The status an update's own words imply, for updates that carry no label. */
export function statusFromText(body: string): string {
  const head = body.slice(0, 2000);
  if (/\b(?:is|been|considered|now|as) (?:fully )?resolved\b|\bresolved\b.{0,20}$|해결/i.test(head)) return 'resolved';
  if (/\bmonitor(?:ing)?\b|지켜/i.test(head)) return 'monitoring';
  if (/\bidentified\b/i.test(head)) return 'identified';
  if (/\binvestigat|조사/i.test(head)) return 'investigating';
  return 'update';
}
