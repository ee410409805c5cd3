// Small pieces every human-facing renderer needs, so the formats say the same things in the same words.
import type { CheckReport } from '../check.js';
import type { ReportNotes } from '../config/ignores.js';
import type { Exposure, Finding, Incident, ReplayWindow } from '../model.js';
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

/**
 * One entry per component with every region it is used in, each once (`S3 (eu-west-1, us-east-1, region unknown)`):
 * the same bucket may be seen by host and by SDK, and a component may be used in several regions.
 */
export function componentEntries(exposure: Exposure): string[] {
  const regions = new Map<string, Set<string | undefined>>();
  for (const component of exposure.components) {
    const seen = regions.get(component.name) ?? new Set();
    seen.add(component.region);
    regions.set(component.name, seen);
  }
  return [...regions].map(([name, seen]) => {
    const known = [...seen].filter((region): region is string => region !== undefined).sort();
    if (known.length === 0) return name;
    return `${name} (${known.join(', ')}${seen.has(undefined) ? ', region unknown' : ''})`;
  });
}

/** Entries joined while they fit in `budget` characters (one at least), the rest counted: `A, B, C, +4 more`. */
export function fitEntries(entries: readonly string[], budget: number): string {
  const shown: string[] = [];
  let length = 0;
  for (const [index, entry] of entries.entries()) {
    const rest = entries.length - index - 1;
    const tail = rest > 0 ? `, +${rest} more`.length : 0;
    const added = (shown.length > 0 ? 2 : 0) + entry.length;
    if (shown.length > 0 && length + added + tail > budget) break;
    shown.push(entry);
    length += added;
  }
  const hidden = entries.length - shown.length;
  return `${shown.join(', ')}${hidden > 0 ? `, +${hidden} more` : ''}`;
}

/**
 * What a provider's exposure covers, in words that are never empty: its components (cut between entries, never inside
 * one), all of it (with its regions and the components seen), or why no component is known.
 */
export function componentPhrase(exposure: Exposure, budget: number): string {
  const entries = componentEntries(exposure);
  if (exposure.wholeProvider) {
    const where = exposure.wholeProviderRegions ? ` in ${exposure.wholeProviderRegions.join(', ')}` : '';
    const head = `all components${where}`;
    return entries.length > 0 ? `${head} (notably ${fitEntries(entries, budget - head.length - 11)})` : head;
  }
  if (entries.length > 0) return fitEntries(entries, budget);
  return exposure.helpersOnly
    ? 'talks to it (auth, signing or transport packages only: no component known)'
    : 'no component named';
}

/** Each package once (name and version, per ecosystem), however many workspaces, chains or inputs reach it. */
export function uniquePackages(report: Pick<CheckReport, 'inputs'>): number {
  // Nested maps, not a joined key: a monorepo's lockfile gives one dependency per workspace and package (15,000 for
  // documenso's 2,300 packages), and a string built for each cost more than the count.
  const seen = new Map<string, Map<string, Set<string>>>();
  let count = 0;
  for (const input of report.inputs)
    for (const { ecosystem, name, version = '' } of input.dependencies) {
      let names = seen.get(ecosystem);
      if (!names) seen.set(ecosystem, (names = new Map()));
      let versions = names.get(name);
      if (!versions) names.set(name, (versions = new Set()));
      if (versions.has(version)) continue;
      versions.add(version);
      count++;
    }
  return count;
}
