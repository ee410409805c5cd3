// The one merge: the same incident from two sources (a page's API and its history feed, a sync and an import, two
// write-ups) becomes one record with each update once and the most precise time kept.
import type { Incident, IncidentUpdate, ReplayWindow } from '../model.js';
import { replayWindow } from '../replay.js';
import { minutesBetween, TOLERANCE_MINUTES } from './windows.js';

/**
 * Same id; or the same URL where that URL names one incident (`/incidents/<id>`, and no other incident of the batch
 * carries it); or overlapping windows with titles that share most of their words; or windows that mostly coincide on
 * the same components (two write-ups of one outage rarely share a title).
 */
export function isSameIncident(a: Incident, b: Incident, sharedUrls: ReadonlySet<string> = new Set()): boolean {
  if (a.provider !== b.provider) return false;
  if (a.id === b.id) return true;
  if (a.url && b.url && identifiesOne(a.url) && identifiesOne(b.url)) {
    const url = normalizeUrl(a.url);
    // Two links to two incident pages are two incidents, however their windows and titles look.
    if (url !== normalizeUrl(b.url)) return false;
    if (!sharedUrls.has(url)) return true;
  }
  const overlap = overlapShare(replayWindow(a), replayWindow(b));
  if (overlap <= 0) return false;
  if (titleSimilarity(a.title, b.title) >= 0.5) return true;
  const sharedComponents =
    a.components.length === 0 || b.components.length === 0 || a.components.some((name) => b.components.includes(name));
  return overlap >= 0.5 && sharedComponents;
}

/** A link to one incident (`/incidents/<id>`, `/incident/<id>`, `?id=`), not to a history page many share. */
export function identifiesOne(url: string): boolean {
  return /\/(?:incidents?|issues?|events?|notices?)\/[\w.~-]{4,}\/?(?:[?#]|$)|[?&](?:id|incident|incidentId)=[\w-]{4,}/i.test(
    url,
  );
}

/** URLs that several different incidents of one batch carry: they name a page, not an incident. */
export function sharedUrlsOf(incidents: Incident[]): Set<string> {
  const ids = new Map<string, Set<string>>();
  for (const incident of incidents) {
    if (!incident.url) continue;
    const url = normalizeUrl(incident.url);
    const set = ids.get(url) ?? new Set<string>();
    set.add(`${incident.provider}/${incident.id}`);
    ids.set(url, set);
  }
  return new Set([...ids].filter(([, set]) => set.size > 1).map(([url]) => url));
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

/**
 * How much a source is trusted for the fields both give: a platform's JSON API over its feed (which has minutes and
 * no components), a feed over a write-up. Sync sources are URLs; imports say `import <format>: <file>`.
 */
export function sourceRank(source: string): 1 | 2 | 3 {
  const first = source.split('; ')[0] ?? '';
  const imported = /^import ([\w-]+):/.exec(first)?.[1];
  if (imported) {
    if (['text', 'html', 'incidentlib'].includes(imported)) return 1;
    return ['feed', 'statuspage-feed', 'aws-rss', 'azure', 'rss', 'atom'].includes(imported) ? 2 : 3;
  }
  if (/^https?:/.test(first)) return /\.(atom|rss|xml)([?#].*)?$|\/feed(\.\w+)?\/?$|\/rss\//i.test(first) ? 2 : 3;
  return 2;
}

/**
 * One record holding what both say. `base` is the more trusted source: its status, resolution, title and impact win
 * where it has them; `other` fills the gaps. The id is `base`'s unless `keepId` names the one links already use.
 */
export function combineIncidents(base: Incident, other: Incident, keepId = base.id): Incident {
  const conflicts = [...(base.conflicts ?? []), ...(other.conflicts ?? [])];
  if (minutesBetween(base.startedAt, other.startedAt) > TOLERANCE_MINUTES)
    conflicts.push(
      `sources disagree on the start: ${base.startedAt} (${base.source}) vs ${other.startedAt} (${other.source})`,
    );
  if (base.resolvedAt && other.resolvedAt && minutesBetween(base.resolvedAt, other.resolvedAt) > TOLERANCE_MINUTES)
    conflicts.push(
      `sources disagree on the resolution: ${base.resolvedAt} (${base.source}) vs ${other.resolvedAt} (${other.source})`,
    );
  // The trusted source says whether it is over (a page's API that reopened an incident outranks its older feed entry);
  // when both say when, the latest credible end counts, as a replay window needs.
  const resolvedAt =
    base.resolvedAt && other.resolvedAt
      ? sameMinute(base.resolvedAt, other.resolvedAt)
        ? precise(base.resolvedAt, other.resolvedAt)
        : later(base.resolvedAt, other.resolvedAt)
      : base.resolvedAt;
  const upstream = [...new Set([...(base.upstream ?? []), ...(other.upstream ?? [])])];
  const evidence = [...(base.evidence ?? []), ...(other.evidence ?? [])].filter(
    (item, i, all) => all.findIndex((seen) => seen.kind === item.kind && seen.value === item.value) === i,
  );
  const impactWindow = mergeWindow(base, other);
  const sources = [...new Set([...base.source.split('; '), ...other.source.split('; ')])].join('; ');
  return {
    ...base,
    id: keepId,
    title: base.title && base.title !== '(untitled)' ? base.title : other.title,
    url: base.url || other.url,
    impact: base.impact === 'unknown' ? other.impact : base.impact,
    kind: base.kind ?? other.kind ?? 'incident',
    components: base.components.length > 0 ? [...new Set([...base.components, ...other.components])] : other.components,
    regions: [...new Set([...base.regions, ...other.regions])],
    startedAt: earliestStart(base.startedAt, other.startedAt),
    resolvedAt,
    updates: mergeUpdates(base.updates, other.updates),
    ...(impactWindow ? { impactWindow } : {}),
    ...(upstream.length > 0 ? { upstream } : {}),
    ...(conflicts.length > 0 ? { conflicts: [...new Set(conflicts)].slice(0, 50) } : {}),
    ...(evidence.length > 0 ? { evidence } : {}),
    source: sources.slice(0, 1000),
  };
}

/**
 * Each update once. A feed writes "01:12" for the update its API stamps 01:12:26, and "Update" where the API says
 * "investigating": updates in the same minute are one, as are updates of the same status two minutes apart (a page
 * copied from a browser). The twin keeps the precise time, the specific status, the longer body.
 */
export function mergeUpdates(base: IncidentUpdate[], other: IncidentUpdate[]): IncidentUpdate[] {
  const merged: IncidentUpdate[] = [...base];
  for (const update of other) {
    const twin = merged.findIndex(
      (known) =>
        (sameMinute(known.at, update.at) &&
          (known.status === update.status ||
            generic(known.status) ||
            generic(update.status) ||
            sameText(known, update))) ||
        (known.status === update.status && minutesBetween(known.at, update.at) <= 2),
    );
    if (twin < 0) {
      merged.push(update);
      continue;
    }
    const known = merged[twin] as IncidentUpdate;
    merged[twin] = {
      at: precise(known.at, update.at),
      status: generic(known.status) ? update.status : known.status,
      body: update.body.length > known.body.length ? update.body : known.body,
      components: [...new Set([...known.components, ...update.components])],
    };
  }
  return merged.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}

function generic(status: string): boolean {
  return status === '' || status === 'update';
}

function sameText(a: IncidentUpdate, b: IncidentUpdate): boolean {
  const head = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 60).toLowerCase();
  return head(a.body) !== '' && head(a.body) === head(b.body);
}

function sameMinute(a: string, b: string): boolean {
  return Math.floor(Date.parse(a) / 60_000) === Math.floor(Date.parse(b) / 60_000);
}

/** Of two readings of one instant, the one written to the second (a feed's minute is the API's second cut short). */
function precise(a: string, b: string): string {
  return Date.parse(a) % 60_000 === 0 ? b : a;
}

/** The earliest start; when both fall in the same minute, the precise one (not the feed's minute before it). */
function earliestStart(a: string, b: string): string {
  if (sameMinute(a, b)) return precise(a, b);
  return Date.parse(b) < Date.parse(a) ? b : a;
}

function later(a: string, b: string): string {
  return Date.parse(b) > Date.parse(a) ? b : a;
}

function mergeWindow(a: Incident, b: Incident): Incident['impactWindow'] {
  if (!a.impactWindow) return b.impactWindow;
  if (!b.impactWindow) return a.impactWindow;
  return {
    from: Date.parse(b.impactWindow.from) < Date.parse(a.impactWindow.from) ? b.impactWindow.from : a.impactWindow.from,
    to: Date.parse(b.impactWindow.to) > Date.parse(a.impactWindow.to) ? b.impactWindow.to : a.impactWindow.to,
    source:
      a.impactWindow.source === b.impactWindow.source
        ? a.impactWindow.source
        : `${a.impactWindow.source} | ${b.impactWindow.source}`.slice(0, 1200),
  };
}

export function normalizeUrl(url: string): string {
  return url
    .toLowerCase()
    .replace(/^https?:\/\/(www\.)?/, '')
    .replace(/\/{2,}/g, '/')
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
