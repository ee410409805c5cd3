// `downstack import`: detect each document's shape, draft its incidents, pick providers, compute windows, merge with
// the index, and write only when every document was read.
import { basename } from 'node:path';
import type { Catalog } from '../../catalog/loader.js';
import { findComponent } from '../../catalog/loader.js';
import { DownstackError, ParseError } from '../../errors.js';
import { isRecord, parseJsonText } from '../../json-text.js';
import type { Incident, InputProblem, ReplayWindow } from '../../model.js';
import { replayWindow } from '../../replay.js';
import { IncidentSchema, INDEX_SCHEMA_VERSION, type IndexFile } from '../schema.js';
import type { IncidentIndex } from '../store.js';
import { acquireLock } from '../lock.js';
import type { DraftIncident } from './draft.js';
import { looksLikeFeed, parseFeed } from './feed.js';
import { isIncidentlibRecord, parseIncidentlib } from './incidentlib.js';
import { isSameIncident, mergeIncidents } from './merge.js';
import { chooseProvider } from './provider.js';
import { isStatuspageJson, parseStatuspageJson } from './statuspage-json.js';
import { parseTextPage } from './text-page.js';
import { computeWindows } from './windows.js';

/** Real incident documents are kilobytes; a whole provider export is a few MB. Anything bigger is refused unread. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

export interface ImportDocument {
  file: string;
  text: string;
}

export interface ImportOptions {
  catalog: Catalog;
  index: IncidentIndex;
  provider?: string;
  dryRun?: boolean;
  /** How long to wait for a sync or another import holding the index lock (default 30 s). */
  lockWaitMs?: number;
}

export interface ImportedIncident {
  provider: string;
  id: string;
  title: string;
  action: 'added' | 'merged';
  replay: ReplayWindow;
  incident: Incident;
}

export interface ImportResult {
  incidents: ImportedIncident[];
  warnings: InputProblem[];
  /** Index files written (none on a dry run). */
  written: string[];
}

/** Every problem in every document, so one run shows them all; nothing was written. */
export class ImportError extends DownstackError {
  override name = 'ImportError';
  constructor(readonly problems: string[]) {
    super(`nothing imported, nothing written:\n  ${problems.join('\n  ')}`);
  }
}

export function readDocument(document: ImportDocument): DraftIncident[] {
  const { file, text } = document;
  if (Buffer.byteLength(text, 'utf8') > MAX_DOCUMENT_BYTES)
    throw new ParseError(file, undefined, tooBig(Buffer.byteLength(text, 'utf8')));
  if (text.trim() === '') throw new ParseError(file, 1, 'empty document');
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    const data = parseJsonText(text, file);
    if (isStatuspageJson(data)) return parseStatuspageJson(data, text, file);
    if (isIncidentlibRecord(data)) return parseIncidentlib(data, text, file);
    if (isRecord(data) && Array.isArray(data.incidents) && data.incidents.length === 0)
      throw new ParseError(file, 1, 'a Statuspage incidents list with no incidents in it: nothing to import');
    throw new ParseError(
      file,
      1,
      'JSON, but neither a Statuspage incident / incidents.json nor an incidentlib record (id, org, date, title, timeline)',
    );
  }
  if (looksLikeFeed(text)) return parseFeed(text, file);
  return [parseTextPage(text, file)];
}

export function tooBig(bytes: number): string {
  return `is ${(bytes / 1024 / 1024).toFixed(1)} MB; incident documents over ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB are refused (import the provider's incidents.json or a feed instead)`;
}

export function finalizeDraft(draft: DraftIncident, provider: string, upstream: string[], catalog: Catalog): Incident {
  const windows = computeWindows(draft);
  const entry = catalog.providers.get(provider);
  const named = draft.components.map((name) => (entry ? (findComponent(entry, name)?.name ?? name) : name));
  const listed =
    entry && draft.componentText
      ? entry.components
          .filter((component) =>
            [component.name, ...(component.aliases ?? [])].some((name) => wordIn(name, draft.componentText ?? '')),
          )
          .map((component) => component.name)
      : [];
  const resolvedStatus = windows.resolvedAt ? 'resolved' : 'investigating';
  const incident: Incident = {
    provider,
    id: draft.id ?? `import-${windows.startedAt}`,
    title: draft.title,
    url: draft.url,
    status: draft.status ?? resolvedStatus,
    impact: draft.impact ?? 'unknown',
    ...(draft.kind ? { kind: draft.kind } : {}),
    components: [...new Set([...named, ...listed])],
    regions: draft.regions,
    startedAt: windows.startedAt,
    resolvedAt: windows.resolvedAt,
    updates: draft.updates,
    ...(windows.impactWindow ? { impactWindow: windows.impactWindow } : {}),
    ...(upstream.length > 0 ? { upstream } : {}),
    ...(windows.conflicts.length > 0 ? { conflicts: windows.conflicts } : {}),
    source: `import ${draft.format}: ${basename(draft.file)}`,
  };
  const checked = IncidentSchema.safeParse(incident);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new ParseError(
      draft.file,
      draft.line,
      `incident "${incident.title}" cannot be stored: ${issue?.path.join('.')}: ${issue?.message}`,
    );
  }
  return incident;
}

export async function importDocuments(documents: ImportDocument[], options: ImportOptions): Promise<ImportResult> {
  const problems: string[] = [];
  const warnings: InputProblem[] = [];
  const incoming: Incident[] = [];
  for (const document of documents) {
    try {
      for (const draft of readDocument(document)) {
        const choice = chooseProvider(draft.hints, options.catalog, options.provider, draft.file);
        const incident = finalizeDraft(draft, choice.provider, choice.upstream, options.catalog);
        incoming.push(incident);
        for (const note of incident.conflicts ?? []) {
          if (/^(?:noTimes|zoneAssumed):|carry no time/.test(note))
            warnings.push({
              file: draft.file,
              line: draft.line,
              message: `${incident.provider}/${incident.id}: ${note}`,
            });
        }
      }
    } catch (error) {
      if (!(error instanceof DownstackError)) throw error;
      problems.push(error instanceof ParseError ? error.located : error.message);
    }
  }
  if (problems.length > 0) throw new ImportError(problems);
  if (incoming.length === 0) throw new ImportError(['no incidents in the documents given']);

  // Read, merge and write under the index lock, so a sync running at the same time cannot undo the import.
  const lock = options.dryRun
    ? undefined
    : await acquireLock(options.index.dir, { waitMs: options.lockWaitMs ?? 30_000 });
  try {
    return await mergeAndWrite(incoming, warnings, options);
  } finally {
    await lock?.release();
  }
}

async function mergeAndWrite(
  incoming: Incident[],
  warnings: InputProblem[],
  options: ImportOptions,
): Promise<ImportResult> {
  const problems: string[] = [];
  const files = new Map<string, IndexFile>();
  const imported: ImportedIncident[] = [];
  for (const provider of [...new Set(incoming.map((incident) => incident.provider))].sort()) {
    let file: IndexFile | undefined;
    try {
      file = await options.index.readIndexFile(provider);
    } catch (error) {
      if (!(error instanceof DownstackError)) throw error;
      problems.push(`${error.message} (fix or remove it first: import never overwrites a file it cannot read)`);
      continue;
    }
    const layered = await options.index.read(provider);
    const stored: Incident[] = [...((file?.incidents ?? []) as Incident[])];
    for (const incident of incoming.filter((item) => item.provider === provider)) {
      const at = stored.findIndex((known) => isSameIncident(known, incident));
      const snapshotMatch = at < 0 ? layered.incidents.find((known) => isSameIncident(known, incident)) : undefined;
      const merged =
        at >= 0
          ? mergeIncidents(stored[at] as Incident, incident)
          : snapshotMatch
            ? mergeIncidents(snapshotMatch, incident)
            : incident;
      if (at >= 0) stored[at] = merged;
      else stored.push(merged);
      imported.push({
        provider,
        id: merged.id,
        title: merged.title,
        action: at >= 0 || snapshotMatch ? 'merged' : 'added',
        replay: replayWindow(merged),
        incident: merged,
      });
    }
    stored.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
    files.set(provider, { ...(file ?? {}), schemaVersion: INDEX_SCHEMA_VERSION, provider, incidents: stored });
  }
  if (problems.length > 0) throw new ImportError(problems);

  const written: string[] = [];
  if (!options.dryRun) {
    for (const file of files.values()) {
      await options.index.write(file);
      written.push(options.index.fileFor(file.provider));
    }
  }
  return { incidents: imported, warnings, written };
}

function wordIn(name: string, text: string): boolean {
  if (name.length < 3) return false;
  return new RegExp(`(?<![\\w-])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`, 'i').test(text);
}
