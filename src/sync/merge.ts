// Folding freshly fetched incidents into what the index already has, with the one merge of the reader layer. The APIs
// return only a recent window (Statuspage: the last 50), so older history stays; what bounds the file is the cap below.
import type { Incident } from '../model.js';
import { combineIncidents, identifiesOne, normalizeUrl, sourceRank } from '../readers/merge.js';
import { isOpenIncident } from '../readers/status.js';
import { byText } from '../text-order.js';

export { sourceRank } from '../readers/merge.js';

/**
 * At most this many incidents per provider file. Past it the oldest incidents that only sync ever wrote are dropped
 * (a page that rotates its ids would otherwise grow the file forever); imported and embedded ones are never dropped.
 */
export const MAX_INCIDENTS_PER_PROVIDER = 10_000;

export interface Batch {
  source: string;
  incidents: Incident[];
  /** The source lists every open incident: an open one it no longer lists has ended. */
  listsAllOpen: boolean;
  /** `sourceRank` of the source: feeds carry less than the JSON APIs; for the same incident the API's version wins. */
  rank: 1 | 2 | 3;
}

export interface MergeResult {
  incidents: Incident[];
  added: number;
  updated: number;
  closed: number;
  /** Old sync-only incidents dropped by the per-provider cap. */
  dropped: number;
}

export function mergeIncidents(
  existing: Incident[],
  batches: Batch[],
  now: string,
  cap = MAX_INCIDENTS_PER_PROVIDER,
): MergeResult {
  const byId = new Map(existing.map((incident) => [incident.id, incident]));
  const rankOf = new Map<string, number>();
  const touched = new Set<string>();
  const known = new KnownIncidents(existing);
  let added = 0;
  let updated = 0;
  // API batches first, so a feed entry for the same incident only fills in what the API lacks.
  const ordered = [...batches].sort((a, b) => b.rank - a.rank);
  const seenBySource = new Map<string, Set<string>>();
  for (const batch of ordered) {
    const seen = seenBySource.get(batch.source) ?? new Set<string>();
    seenBySource.set(batch.source, seen);
    for (const incoming of batch.incidents) {
      const id = targetId(incoming, byId) ?? known.find(incoming) ?? incoming.id;
      seen.add(id);
      const current = byId.get(id);
      const next = { ...incoming, id };
      if (!current) {
        byId.set(id, next);
        known.add(next);
        rankOf.set(id, batch.rank);
        added++;
        touched.add(id);
        continue;
      }
      const currentRank = rankOf.get(id) ?? storedRank(current);
      const merged =
        batch.rank >= currentRank ? combineIncidents(next, current, id) : combineIncidents(current, next, id);
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
      if (!incident.source.split('; ').includes(batch.source) || seen.has(id) || !isOpenIncident(incident)) continue;
      byId.set(id, closeGone(incident, now));
      closed++;
    }
  }
  const sorted = [...byId.values()].sort((a, b) => byText(b.startedAt, a.startedAt) || byText(a.id, b.id));
  const kept = capped(sorted, cap);
  return { incidents: kept, added, updated, closed, dropped: sorted.length - kept.length };
}

/** Newest first in, the oldest sync-only ones out, until the file fits the cap. */
function capped(sorted: Incident[], cap: number): Incident[] {
  if (sorted.length <= cap) return sorted;
  let excess = sorted.length - cap;
  const drop = new Set<Incident>();
  for (let i = sorted.length - 1; i >= 0 && excess > 0; i--) {
    const incident = sorted[i] as Incident;
    if (!syncOnly(incident) || isOpenIncident(incident)) continue;
    drop.add(incident);
    excess--;
  }
  return sorted.filter((incident) => !drop.has(incident));
}

/** Written by sync alone: every source is a URL it fetched (imports say `import …`, the snapshot `embedded`). */
function syncOnly(incident: Incident): boolean {
  return incident.source.split('; ').every((source) => /^https?:\/\//.test(source));
}

function storedRank(incident: Incident): number {
  return Math.max(...incident.source.split('; ').map((source) => sourceRank(source)));
}

/**
 * The same incident under another id: a page that rotates its ids still gives the same link to one incident, or the
 * same title at the same minute. Looked up by key, so a sync costs the same however large the file has grown.
 */
class KnownIncidents {
  private readonly byKey = new Map<string, string>();

  constructor(incidents: Incident[]) {
    for (const incident of incidents) this.add(incident);
  }

  add(incident: Incident): void {
    for (const key of this.keys(incident)) if (!this.byKey.has(key)) this.byKey.set(key, incident.id);
  }

  find(incident: Incident): string | undefined {
    for (const key of this.keys(incident)) {
      const id = this.byKey.get(key);
      if (id !== undefined) return id;
    }
    return undefined;
  }

  private keys(incident: Incident): string[] {
    const title = incident.title.toLowerCase().replace(/\s+/g, ' ').trim();
    return [
      ...(incident.url && identifiesOne(incident.url) && !incident.url.includes(encodeURIComponent(incident.id))
        ? [`url ${normalizeUrl(incident.url)}`]
        : []),
      ...(title && title !== '(untitled)' ? [`title ${title} ${incident.startedAt.slice(0, 16)}`] : []),
    ];
  }
}

/**
 * Some platforms reuse an id for a later incident (Azure's guid is a title slug). An id whose incident closed
 * before this one started is such a reuse: the new incident gets `<id>~<start>` so the old one is kept.
 */
function targetId(incoming: Incident, byId: Map<string, Incident>): string | undefined {
  const current = byId.get(incoming.id);
  if (!current) return undefined;
  if (current.resolvedAt === null || incoming.startedAt <= current.resolvedAt) return incoming.id;
  const variants = [...byId.values()].filter((incident) => incident.id.startsWith(`${incoming.id}~`));
  const match = variants.find((incident) => incident.resolvedAt === null || incoming.startedAt <= incident.resolvedAt);
  return match?.id ?? `${incoming.id}~${incoming.startedAt.slice(0, 16)}`;
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
      .sort(([a], [b]) => byText(a, b))
      .map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
