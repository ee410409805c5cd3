// Replay from when impact began. Status pages post after impact starts, so where an incident's start is only its
// page's first post, the replay window starts earlier by a lead measured per platform on the bundled history
// (history/leads.json, written by `npm run build:history`; the figures are in docs/history.md). A start the provider
// states — Google Cloud's `begin`, a postmortem's "began at 19:39", a hand-checked snapshot window — is never moved.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Catalog } from '../catalog/loader.js';
import type { Provider } from '../catalog/schema.js';
import type { AppliedLead, Incident } from '../model.js';
import { HISTORY_DIR } from '../paths.js';
import type { LeadFigure, LeadTable } from './lead-schema.js';
import { cachedLeads } from './snapshot-cache.js';

type Platform = Provider['status']['platform'];

/** Platforms whose payloads state when impact began as data, so their starts are never a first post. */
const STATED_START_PLATFORMS = new Set<Platform>(['gcp']);

/** A start within this of the first update is the page's first post (pages stamp both when posting). */
const SAME_POST_MS = 60_000;

export type { LeadFigure, LeadTable } from './lead-schema.js';

/** The lead to apply to one incident, or undefined when its start is stated or no lead applies. */
export type LeadFor = (incident: Incident) => AppliedLead | undefined;

export const LEADS_FILE = 'leads.json';

/** The measured table shipped with the package; undefined (no lead) when it is missing or unreadable. */
export async function loadLeadTable(dir: string | null = HISTORY_DIR): Promise<LeadTable | undefined> {
  if (dir === null) return undefined;
  try {
    // The shipped table was validated when the package was built (snapshot-cache.ts); any other is checked here.
    const copy = cachedLeads(dir);
    if (copy) return copy;
    const { LeadTableSchema } = await import('./lead-schema.js');
    const parsed = LeadTableSchema.safeParse(JSON.parse(await readFile(join(dir, LEADS_FILE), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** When the status page first posted: its earliest live update, or the start when it has none. */
export function firstPost(incident: Incident): string {
  const posts = incident.updates.filter((update) => update.status !== 'postmortem').map((update) => update.at);
  return posts.reduce((earliest, at) => (at < earliest ? at : earliest), posts[0] ?? incident.startedAt);
}

/**
 * Whether the only start an incident has is when its page first posted. The bundled history and the snapshot say
 * so outright (`timePrecision`); otherwise a stated impact window, a platform that publishes impact starts, or a
 * start the page back-dated before its first post all count as stated.
 */
export function startIsFirstPost(incident: Incident, platform?: Platform): boolean {
  if (incident.timePrecision) return incident.timePrecision === 'upper-bound';
  if (incident.impactWindow) return false;
  if (platform && STATED_START_PLATFORMS.has(platform)) return false;
  return Date.parse(incident.startedAt) >= Date.parse(firstPost(incident)) - SAME_POST_MS;
}

/**
 * The lead for each incident: `overrideMinutes` (`--lead`) when given, else the figure measured for its provider's
 * platform. Zero turns the lead off.
 */
export function leadResolver(catalog: Catalog, table: LeadTable | undefined, overrideMinutes?: number): LeadFor {
  return (incident) => {
    const platform = catalog.providers.get(incident.provider)?.status.platform;
    if (!startIsFirstPost(incident, platform)) return undefined;
    const figure = overrideMinutes === undefined ? figureFor(table, platform) : undefined;
    const minutes = overrideMinutes ?? figure?.minutes ?? 0;
    if (minutes <= 0) return undefined;
    return {
      postedAt: firstPost(incident),
      minutes,
      basis: overrideMinutes === undefined ? `median of ${figure?.sample} ${figure?.measuredOn} incidents` : '--lead',
    };
  };
}

function figureFor(table: LeadTable | undefined, platform: Platform | undefined): LeadFigure | undefined {
  if (!table) return undefined;
  return (platform ? table.platforms[platform] : undefined) ?? table.platforms[table.fallback];
}
