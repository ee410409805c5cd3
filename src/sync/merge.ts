// Folding freshly fetched incidents into what the index already has. Nothing the index held is dropped: the
// APIs only return a recent window (Statuspage: the last 50), so older history stays as it was.
import type { Incident, IncidentUpdate } from '../model.js';

export interface Batch {
  source: string;
  incidents: Incident[];
  /** The source lists every open incident: an open one it no longer lists has ended. */
  listsAllOpen: boolean;
  /** Feeds carry less than the JSON APIs; for the same incident the API's version wins. */
  rank: 1 | 2;
}

export interface MergeResult {
  incidents: Incident[];
  added: number;
  updated: number;
  closed: number;
}

const CLOSED = new Set(['resolved', 'postmortem', 'completed']);
const isOpen = (incident: Incident) => incident.resolvedAt === null && !CLOSED.has(incident.status);

export function mergeIncidents(existing: Incident[], batches: Batch[], now: string): MergeResult {
  const byId = new Map(existing.map((incident) => [incident.id, incident]));
  const rankOf = new Map<string, number>();
  const touched = new Set<string>();
  let added = 0;
  let updated = 0;
  // API batches first, so a feed entry for the same incident only fills in what the API lacks.
  const ordered = [...batches].sort((a, b) => b.rank - a.rank);
  const seenBySource = new Map<string, Set<string>>();
  for (const batch of ordered) {
    const seen = seenBySource.get(batch.source) ?? new Set<string>();
    seenBySource.set(batch.source, seen);
    for (const incoming of batch.incidents) {
      const id = targetId(incoming, byId);
      seen.add(id);
      const current = byId.get(id);
      const next = { ...incoming, id };
      if (!current) {
        byId.set(id, next);
        rankOf.set(id, batch.rank);
        added++;
        touched.add(id);
        continue;
      }
      const currentRank = rankOf.get(id) ?? sourceRank(current.source);
      const merged = batch.rank >= currentRank ? combine(next, current) : combine(current, next);
      rankOf.set(id, Math.max(batch.rank, currentRank));
      if (!sameIncident(merged, current)) {
        byId.set(id, merged);
        if (!touched.has(id)) updated++;
        touched.add(id);
      }
    }
  }
  let closed = 0;
  for (const batch of batches) {
    if (!batch.listsAllOpen) continue;
    const seen = seenBySource.get(batch.source) ?? new Set<string>();
    for (const [id, incident] of byId) {
      if (incident.source !== batch.source || seen.has(id) || !isOpen(incident)) continue;
      byId.set(id, closeGone(incident, now));
      closed++;
    }
  }
  return {
    incidents: [...byId.values()].sort((a, b) => b.startedAt.localeCompare(a.startedAt) || a.id.localeCompare(b.id)),
    added,
    updated,
    closed,
  };
}

/**
 * Some platforms reuse an id for a later incident (Azure's guid is a title slug). An id whose incident closed
 * before this one started is such a reuse: the new incident gets `<id>~<start>` so the old one is kept.
 */
function targetId(incoming: Incident, byId: Map<string, Incident>): string {
  const current = byId.get(incoming.id);
  if (!current || current.resolvedAt === null || incoming.startedAt <= current.resolvedAt) return incoming.id;
  const variants = [...byId.values()].filter((incident) => incident.id.startsWith(`${incoming.id}~`));
  const match = variants.find((incident) => incident.resolvedAt === null || incoming.startedAt <= incident.resolvedAt);
  return match?.id ?? `${incoming.id}~${incoming.startedAt.slice(0, 16)}`;
}

/** `base` wins field by field; updates are the union (by time), the start the earliest either side saw. */
function combine(base: Incident, other: Incident): Incident {
  const updates = new Map<string, IncidentUpdate>();
  for (const update of other.updates) updates.set(update.at, update);
  for (const update of base.updates) updates.set(update.at, update);
  return {
    ...base,
    startedAt: base.startedAt < other.startedAt ? base.startedAt : other.startedAt,
    components: base.components.length > 0 ? base.components : other.components,
    regions: base.regions.length > 0 ? base.regions : other.regions,
    updates: [...updates.values()].sort((a, b) => a.at.localeCompare(b.at)),
    // What an import added from a postmortem (stated impact, upstream cause, conflicting sources) survives a sync.
    ...((base.impactWindow ?? other.impactWindow) ? { impactWindow: base.impactWindow ?? other.impactWindow } : {}),
    ...((base.upstream ?? other.upstream) ? { upstream: base.upstream ?? other.upstream } : {}),
    ...((base.conflicts ?? other.conflicts) ? { conflicts: base.conflicts ?? other.conflicts } : {}),
  };
}

/** Incidents already in the index carry only their source URL: feeds rank below JSON APIs. */
export function sourceRank(source: string): 1 | 2 {
  return /\.(atom|rss|xml)([?#].*)?$|\/feed(\.\w+)?\/?$/i.test(source) ? 1 : 2;
}

function closeGone(incident: Incident, now: string): Incident {
  const maintenance = incident.kind === 'maintenance';
  return {
    ...incident,
    status: maintenance ? 'completed' : 'resolved',
    resolvedAt: now,
    updates: [
      ...incident.updates,
      {
        at: now,
        status: maintenance ? 'completed' : 'resolved',
        body: `No longer listed at ${incident.source}; marked ended when sync noticed.`,
        components: [],
      },
    ],
  };
}

/** Deep equality that ignores key order (files read back through the schema may order keys differently). */
function sameIncident(a: Incident, b: Incident): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
    return `{${entries
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
