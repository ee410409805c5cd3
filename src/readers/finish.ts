// The single exit from the reader layer: a draft and the provider it belongs to become an Incident the index will take.
// Windows are read (status, stated impact, conflicts), a record that contradicts itself gets its most credible reading,
// components and regions named in the text are added with their evidence, remote strings are cleaned and capped, and
// only http(s) links are kept.
import { basename } from 'node:path';
import { findComponent } from '../catalog/catalog.js';
import type { Provider } from '../catalog/schema.js';
import { credibleTimes } from '../incidents/invariants.js';
import { IncidentSchema } from '../incidents/schema.js';
import type { Incident, IncidentUpdate, TextEvidence } from '../model.js';
import { cleanLine, cleanText } from '../sanitize.js';
import type { DraftIncident } from './draft.js';
import { MAX_URL, safeUrl } from './platform.js';
import { evidenceFromText } from './text/evidence.js';
import type { EntryProblem } from './types.js';
import { computeWindows } from './windows.js';

export const LIMITS = {
  title: 300,
  body: 4000,
  name: 200,
  id: 200,
  updates: 200,
  components: 200,
  regions: 100,
  conflicts: 50,
} as const;

export interface FinishOptions {
  provider: string;
  /** The catalog entry, when the provider has one: component names and aliases, regions. */
  entry?: Provider;
  upstream?: string[];
  /** What the incident's `source` says: the URL sync read, or `import <format>: <file>`. */
  source?: string;
  /** The status page's URL, for an incident with no link of its own. */
  pageUrl?: string;
}

export function finishDraft(draft: DraftIncident, options: FinishOptions): Incident | EntryProblem {
  const problem = (message: string): EntryProblem => ({ line: draft.line, entry: entryName(draft), message });
  const placeable =
    draft.startedAt !== undefined ||
    draft.updates.some((update) => update.status !== 'postmortem') ||
    draft.claims.some((claim) => claim.from !== undefined && claim.kind === 'impact') ||
    draft.dateOnly !== undefined;
  if (!placeable)
    return problem('no start time or date to place it at (the text gives only ends or postmortems); skipped');
  const windows = computeWindows(draft);
  const entry = options.entry;
  const named = draft.components.map((name) => (entry ? (findComponent(entry, name)?.name ?? name) : name));
  const text = [draft.title, ...draft.updates.map((update) => update.body), draft.hints.text].join('\n');
  // A source that lists its components is taken at its word; the text speaks for sources that list none.
  const read =
    named.length === 0 || draft.componentText ? evidenceFromText(entry, text, draft.componentText) : undefined;
  const evidence: TextEvidence[] = (read?.evidence ?? []).filter(
    (item) => item.kind === 'region' || !named.includes(item.value),
  );
  const components = unique([...named, ...(read?.components ?? [])], LIMITS.name, LIMITS.components);
  const regions = unique([...draft.regions, ...(read?.regions ?? [])], 100, LIMITS.regions);
  const updates: IncidentUpdate[] = draft.updates.slice(-LIMITS.updates).map((update) => ({
    at: update.at,
    status: cleanLine(update.status, 40),
    body: cleanText(update.body, LIMITS.body),
    components: unique(update.components, LIMITS.name, LIMITS.components),
  }));
  const closed = windows.resolvedAt !== null;
  const status = draft.status ?? (closed ? 'resolved' : 'investigating');
  const url = safeUrl(draft.url) ?? safeUrl(options.pageUrl) ?? '';
  const dropped =
    draft.url && !safeUrl(draft.url) ? [`link "${cleanLine(draft.url, 80)}" is not an http(s) URL; dropped`] : [];
  const conflicts = [...windows.conflicts, ...dropped].map((note) => cleanLine(note, 700)).slice(0, LIMITS.conflicts);
  const incident: Incident = credibleTimes(
    {
      provider: options.provider,
      id: cleanLine(draft.id ?? `import-${windows.startedAt}`, LIMITS.id),
      title: cleanLine(draft.title, LIMITS.title) || '(untitled)',
      url: url.length > MAX_URL ? '' : url,
      status,
      impact: draft.impact ?? 'unknown',
      kind: draft.kind ?? 'incident',
      components,
      regions,
      startedAt: windows.startedAt,
      resolvedAt: windows.resolvedAt,
      updates,
      ...(windows.impactWindow
        ? { impactWindow: { ...windows.impactWindow, source: cleanLine(windows.impactWindow.source, 1200) } }
        : {}),
      ...(options.upstream && options.upstream.length > 0 ? { upstream: options.upstream } : {}),
      ...(conflicts.length > 0 ? { conflicts } : {}),
      ...(evidence.length > 0
        ? { evidence: evidence.map((item) => ({ ...item, quote: cleanLine(item.quote, 200) })) }
        : {}),
      source: options.source ?? `import ${draft.format}: ${basename(draft.file)}`,
    },
    draft.otherStarts,
  );
  const checked = IncidentSchema.safeParse(incident);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    return problem(`cannot be stored: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  return checked.data as Incident;
}

/** How a problem names the entry: its title as written, else its id. */
export function entryName(draft: Pick<DraftIncident, 'title' | 'id'>): string {
  return cleanLine(draft.title || draft.id || '(untitled)', 80);
}

function unique(values: string[], max: number, count: number): string[] {
  const seen = new Set<string>();
  for (const value of values) {
    const cleaned = cleanLine(value, max);
    if (cleaned) seen.add(cleaned);
    if (seen.size >= count) break;
  }
  return [...seen];
}
