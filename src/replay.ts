// Replay windows: from the earliest credible start to the latest credible end of each finding, merged.
import type { AppliedLead, Finding, Incident, ReplayBand, ReplayWindow } from './model.js';
import { byText } from './text-order.js';

/**
 * Earliest of: stated impact start, first update, status-page start. Latest of: resolution, stated impact end.
 * Later updates (a postmortem posted days after) are not part of the outage, so they do not extend it.
 * A `lead` (given only where the start is the page's first post, src/incidents/lead.ts) moves the start earlier.
 */
export function replayWindow(incident: Incident, lead?: AppliedLead): ReplayWindow {
  const window = credibleWindow(incident);
  if (!lead || lead.minutes <= 0) return window;
  const from = `${new Date(Date.parse(window.from) - lead.minutes * 60_000).toISOString().slice(0, 19)}Z`;
  return { from, to: window.to, lead: { ...lead, postedAt: window.from } };
}

function credibleWindow(incident: Incident): ReplayWindow {
  // A maintenance announced days ahead is not down from its announcement: its window starts with the work.
  const announced = new Set(
    incident.kind === 'maintenance'
      ? incident.updates.filter((update) => update.status === 'scheduled').map((update) => update.at)
      : [],
  );
  const posted = [incident.startedAt, ...incident.updates.map((update) => update.at)].filter(isTime);
  const worked = posted.filter((time) => !announced.has(time));
  const starts = [
    ...(worked.length > 0 || incident.impactWindow ? worked : posted),
    incident.impactWindow?.from,
  ].filter(isTime);
  const from = starts.reduce((earliest, time) => (time < earliest ? time : earliest));
  if (incident.resolvedAt === null) return { from, to: null };
  const ends = [incident.resolvedAt, incident.impactWindow?.to].filter(isTime);
  const to = ends.reduce((latest, time) => (time > latest ? time : latest));
  return { from, to: to < from ? from : to };
}

function isTime(value: string | undefined): value is string {
  return typeof value === 'string' && value !== '';
}

/** Merges overlapping (or touching) windows; an open window runs to the present and swallows later ones. */
export function mergeWindows(findings: Array<Pick<Finding, 'provider' | 'replay'>>): ReplayBand[] {
  const sorted = [...findings].sort((a, b) => byText(a.replay.from, b.replay.from));
  const bands: ReplayBand[] = [];
  for (const { provider, replay } of sorted) {
    const last = bands.at(-1);
    if (last && (last.to === null || replay.from <= last.to)) {
      if (last.to !== null && (replay.to === null || replay.to > last.to)) last.to = replay.to;
      if (!last.providers.includes(provider)) last.providers.push(provider);
    } else {
      bands.push({ from: replay.from, to: replay.to, providers: [provider] });
    }
  }
  return bands;
}

/** Whether a window (open ones run to `now`) overlaps [since, until]; compares instants, not strings. */
export function overlapsWindow(window: ReplayWindow, since: Date, until: Date, now: Date): boolean {
  return (
    Date.parse(window.from) <= until.getTime() &&
    (window.to === null ? now.getTime() : Date.parse(window.to)) >= since.getTime()
  );
}

export function windowMs(window: { from: string; to: string | null }, now: Date): number {
  return (window.to === null ? now.getTime() : Date.parse(window.to)) - Date.parse(window.from);
}
