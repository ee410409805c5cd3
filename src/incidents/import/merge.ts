// The same incident imported twice, or from two sources (its Statuspage JSON and a postmortem page), is one record.
import type { Incident, IncidentUpdate, ReplayWindow } from '../../model.js';
import { replayWindow } from '../../replay.js';
import { TOLERANCE_MINUTES, minutesBetween } from './windows.js';

/**
 * Same id; or same URL; or overlapping windows with titles that share most of their words; or windows that mostly
 * coincide on the same components (two write-ups of one outage rarely share a title).
 */
export function isSameIncident(a: Incident, b: Incident): boolean {
  if (a.provider !== b.provider) return false;
  if (a.id === b.id) return true;
  if (a.url && b.url && normalizeUrl(a.url) === normalizeUrl(b.url)) return true;
  const overlap = overlapShare(replayWindow(a), replayWindow(b));
  if (overlap <= 0) return false;
  if (titleSimilarity(a.title, b.title) >= 0.5) return true;
  const sharedComponents =
    a.components.length === 0 || b.components.length === 0 || a.components.some((name) => b.components.includes(name));
  return overlap >= 0.5 && sharedComponents;
}

/** Overlap as a share of the shorter window (open windows run to the far future); 0 when they do not meet. */
function overlapShare(a: ReplayWindow, b: ReplayWindow): number {
  const end = (window: ReplayWindow) => (window.to === null ? Number.MAX_SAFE_INTEGER : Date.parse(window.to));
  const start = Math.max(Date.parse(a.from), Date.parse(b.from));
  const stop = Math.min(end(a), end(b));
  if (stop < start) return 0;
  const shorter = Math.max(1, Math.min(end(a) - Date.parse(a.from), end(b) - Date.parse(b.from)));
  return stop === start ? 1 / shorter : (stop - start) / shorter;
}

/** One record holding what both say; the existing record's id is kept so links to it stay valid. */
export function mergeIncidents(existing: Incident, incoming: Incident): Incident {
  // A page shows "8:00 PM" for an update the API stamps 20:00:41: the same status within two minutes is one update.
  const updates: IncidentUpdate[] = [...existing.updates];
  for (const update of incoming.updates) {
    const twin = updates.findIndex(
      (known) => known.status === update.status && minutesBetween(known.at, update.at) <= 2,
    );
    if (twin < 0) updates.push(update);
    else if (update.body.length > (updates[twin] as IncidentUpdate).body.length)
      updates[twin] = { ...update, at: (updates[twin] as IncidentUpdate).at };
  }
  const conflicts = [...(existing.conflicts ?? []), ...(incoming.conflicts ?? [])];
  if (minutesBetween(existing.startedAt, incoming.startedAt) > TOLERANCE_MINUTES) {
    conflicts.push(
      `sources disagree on the start: ${existing.startedAt} (${existing.source}) vs ${incoming.startedAt} (${incoming.source})`,
    );
  }
  if (
    existing.resolvedAt &&
    incoming.resolvedAt &&
    minutesBetween(existing.resolvedAt, incoming.resolvedAt) > TOLERANCE_MINUTES
  ) {
    conflicts.push(
      `sources disagree on the resolution: ${existing.resolvedAt} (${existing.source}) vs ${incoming.resolvedAt} (${incoming.source})`,
    );
  }
  const impactWindow = mergeWindow(existing, incoming);
  const resolvedAt =
    existing.resolvedAt && incoming.resolvedAt
      ? later(existing.resolvedAt, incoming.resolvedAt)
      : (existing.resolvedAt ?? incoming.resolvedAt);
  const upstream = [...new Set([...(existing.upstream ?? []), ...(incoming.upstream ?? [])])];
  const sources = [...new Set([...existing.source.split('; '), ...incoming.source.split('; ')])].join('; ');
  return {
    ...existing,
    title: existing.title || incoming.title,
    url: existing.url || incoming.url,
    status:
      resolvedAt && !['resolved', 'postmortem', 'completed'].includes(existing.status)
        ? incoming.status
        : existing.status,
    impact: existing.impact === 'unknown' ? incoming.impact : existing.impact,
    components: [...new Set([...existing.components, ...incoming.components])],
    regions: [...new Set([...existing.regions, ...incoming.regions])],
    startedAt: earlier(existing.startedAt, incoming.startedAt),
    resolvedAt,
    updates: updates.sort((a, b) => Date.parse(a.at) - Date.parse(b.at)),
    ...(impactWindow ? { impactWindow } : {}),
    ...(upstream.length > 0 ? { upstream } : {}),
    ...(conflicts.length > 0 ? { conflicts: [...new Set(conflicts)] } : {}),
    source: sources,
  };
}

function mergeWindow(a: Incident, b: Incident): Incident['impactWindow'] {
  if (!a.impactWindow) return b.impactWindow;
  if (!b.impactWindow) return a.impactWindow;
  return {
    from: earlier(a.impactWindow.from, b.impactWindow.from),
    to: later(a.impactWindow.to, b.impactWindow.to),
    source:
      a.impactWindow.source === b.impactWindow.source
        ? a.impactWindow.source
        : `${a.impactWindow.source} | ${b.impactWindow.source}`.slice(0, 1200),
  };
}

// Records from different sources write times to the minute ("21:24Z") or second ("21:24:05Z"): compare instants, not strings.
function earlier(a: string, b: string): string {
  return Date.parse(b) < Date.parse(a) ? b : a;
}

function later(a: string, b: string): string {
  return Date.parse(b) > Date.parse(a) ? b : a;
}

function normalizeUrl(url: string): string {
  return url
    .toLowerCase()
    .replace(/^https?:\/\/(www\.)?/, '')
    .replace(/[/#?]+$/, '');
}

function titleSimilarity(a: string, b: string): number {
  const words = (text: string) =>
    new Set(
      text
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter((word) => word.length > 2),
    );
  const wa = words(a);
  const wb = words(b);
  if (wa.size === 0 || wb.size === 0) return 0;
  const shared = [...wa].filter((word) => wb.has(word)).length;
  return shared / Math.min(wa.size, wb.size);
}
