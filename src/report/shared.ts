// Small pieces every human-facing renderer needs, so the formats say the same things in the same words.
import type { CheckReport } from '../check.js';
import type { ReportNotes } from '../config/ignores.js';
import type { Finding, Incident, ReplayWindow } from '../model.js';
import { windowMs } from '../replay.js';
import { formatDuration, formatRange, formatUtc } from '../time.js';

export interface RenderOptions {
  now: Date;
  color?: boolean;
  /** Ignored findings and expired ignore rules from `.downstack.yml`. */
  notes?: ReportNotes;
  /** The table shows at most this many incidents and replay windows (open ones always); 0 or absent: all. */
  limit?: number;
}

export const EMPTY_NOTES: ReportNotes = { ignored: [], expired: [] };

export function providerName(report: CheckReport, id: string): string {
  return report.catalog.providers.get(id)?.name ?? id;
}

/** Where people should subscribe: the history feed when the catalog knows one, else the status page. */
export function statusFeed(report: CheckReport, id: string): { url: string; isFeed: boolean } | undefined {
  const status = report.catalog.providers.get(id)?.status;
  if (!status) return undefined;
  return status.feed ? { url: status.feed, isFeed: true } : { url: status.url, isFeed: false };
}

export function touchedLabel(finding: Finding): string {
  return finding.components.length > 0 ? finding.components.join(', ') : 'the whole provider';
}

/** `2021-08-10 20:30 → 21:05 UTC (35m)`, or `… → ongoing (3h 46m so far)`. */
export function replayLabel(finding: Pick<Finding, 'replay'>, now: Date): string {
  const length = formatDuration(windowMs(finding.replay, now));
  return `${formatRange(finding.replay.from, finding.replay.to)} (${length}${finding.replay.to === null ? ' so far' : ''})`;
}

/**
 * Why a replay starts before the status page does: `replay from 19:05 — the page posted at 19:39; impact usually
 * begins earlier (34m lead, median of 812 incidents on Statuspage pages)`. Empty when the start was not moved.
 */
export function leadNote(window: ReplayWindow): string {
  if (!window.lead) return '';
  const sameDay = window.from.slice(0, 10) === window.lead.postedAt.slice(0, 10);
  const time = (iso: string) => (sameDay ? iso.slice(11, 16) : formatUtc(iso));
  return `replay from ${time(window.from)} — the page posted at ${time(window.lead.postedAt)}${sameDay ? ' UTC' : ''}; impact usually begins earlier (${formatDuration(window.lead.minutes * 60_000)} lead, ${window.lead.basis === '--lead' ? 'set by --lead' : window.lead.basis})`;
}

/** The duration the provider itself stated, when the text gave one; otherwise the replay window's. */
export function statedDuration(incident: Incident, finding: Finding, now: Date): string {
  if (incident.impactWindow)
    return `${formatDuration(windowMs(incident.impactWindow, now))} of stated impact (${formatRange(incident.impactWindow.from, incident.impactWindow.to)})`;
  return `${formatDuration(windowMs(finding.replay, now))} outage (${formatRange(finding.replay.from, finding.replay.to)})`;
}

export function isHttpUrl(value: string): boolean {
  return /^https?:\/\/[^\s]+$/i.test(value);
}

export function countLabel(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** Findings grouped by provider, in the order the report lists them (active first). */
export function byProvider(findings: Finding[]): Map<string, Finding[]> {
  const groups = new Map<string, Finding[]>();
  for (const finding of findings) {
    const list = groups.get(finding.provider);
    if (list) list.push(finding);
    else groups.set(finding.provider, [finding]);
  }
  return groups;
}
