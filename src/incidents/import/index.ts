// `downstack import`: each document's format is told from its content and read by the same reader sync uses; every
// readable entry is imported and every unreadable one reported as `file:line: entry "…": what is wrong`. The batch is
// written at once under the index lock: a crash or a lock held elsewhere writes nothing.
import type { Catalog } from '../../catalog/loader.js';
import { DownstackError, ImportError, ParseError } from '../../errors.js';
import type { Incident, InputProblem, ReplayWindow } from '../../model.js';
import type { DraftIncident } from '../../readers/draft.js';
import { entryName, finishDraft } from '../../readers/finish.js';
import { combineIncidents, isSameIncident, sharedUrlsOf, sourceRank } from '../../readers/merge.js';
import { detectFormat } from '../../readers/registry.js';
import { describeProblem } from '../../readers/types.js';
import { replayWindow } from '../../replay.js';
import { acquireLock } from '../lock.js';
import { INDEX_SCHEMA_VERSION, type IndexFile } from '../schema.js';
import { type IncidentIndex, indexWriteError } from '../store.js';
import { chooseProvider } from './provider.js';
import { byText } from '../../text-order.js';

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
  /** How many entries of the documents went into this one record. */
  entries: number;
  replay: ReplayWindow;
  incident: Incident;
}

export interface ImportResult {
  /** One per record added to or changed in the index: several entries of one incident count once. */
  incidents: ImportedIncident[];
  /** Entries read into incidents. */
  entries: number;
  /** Entries (or whole documents) that could not be read, as `file:line: entry "…": what is wrong`. */
  problems: string[];
  warnings: InputProblem[];
  /** Index files written (none on a dry run). */
  written: string[];
}

/** The drafts of one document and the entries it could not read; throws ParseError when none of it is readable. */
export function readDocument(document: ImportDocument): {
  drafts: DraftIncident[];
  problems: string[];
  format: string;
} {
  const { file, text } = document;
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_DOCUMENT_BYTES) throw new ParseError(file, undefined, tooBig(bytes));
  if (text.trim() === '') throw new ParseError(file, 1, 'empty document');
  const detected = detectFormat(text, file);
  const result = detected.reader(text, {
    source: file,
    componentNames: new Map(),
    ...(detected.json !== undefined ? { json: detected.json } : {}),
  });
  return {
    drafts: result.drafts,
    problems: result.problems.map((problem) => describeProblem(file, problem)),
    format: detected.format,
  };
}

export function tooBig(bytes: number): string {
  return `is ${(bytes / 1024 / 1024).toFixed(1)} MB; incident documents over ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB are refused (import the provider's incidents.json or a feed instead)`;
}

/** A draft as the incident it becomes for its provider, or the problem that keeps it out. */
export function finalizeDraft(
  draft: DraftIncident,
  catalog: Catalog,
  override: string | undefined,
  warnings: InputProblem[],
): Incident | string {
  let choice: ReturnType<typeof chooseProvider>;
  try {
    choice = chooseProvider(draft.hints, catalog, override, draft.file);
  } catch (error) {
    if (!(error instanceof DownstackError)) throw error;
    return describeProblem(draft.file, {
      line: draft.line,
      entry: entryName(draft),
      message: error.message.replace(`${draft.file}: `, ''),
    });
  }
  const entry = catalog.providers.get(choice.provider);
  const finished = finishDraft(draft, { provider: choice.provider, entry, upstream: choice.upstream });
  if (!('provider' in finished)) return describeProblem(draft.file, finished);
  if (choice.inferred)
    warnings.push({
      file: draft.file,
      line: draft.line,
      message: `${finished.id}: provider ${choice.provider} (inferred: ${choice.inferred}) — --provider to override`,
    });
  for (const note of finished.conflicts ?? [])
    if (/^(?:noTimes|zoneAssumed):|carry no time|is not an http\(s\) URL/.test(note))
      warnings.push({ file: draft.file, line: draft.line, message: `${finished.provider}/${finished.id}: ${note}` });
  return finished;
}

export async function importDocuments(documents: ImportDocument[], options: ImportOptions): Promise<ImportResult> {
  const problems: string[] = [];
  const warnings: InputProblem[] = [];
  const incoming: Incident[] = [];
  let entries = 0;
  for (const document of documents) {
    let read: ReturnType<typeof readDocument>;
    try {
      read = readDocument(document);
    } catch (error) {
      if (!(error instanceof DownstackError)) throw error;
      problems.push(error instanceof ParseError ? error.located : error.message);
      continue;
    }
    problems.push(...read.problems);
    for (const draft of read.drafts) {
      const result = finalizeDraft(draft, options.catalog, options.provider, warnings);
      if (typeof result === 'string') problems.push(result);
      else {
        incoming.push(result);
        entries++;
      }
    }
  }
  if (options.provider && !options.catalog.providers.has(options.provider) && incoming.length > 0)
    warnings.push({
      file: documents[0]?.file ?? '',
      message: `provider "${options.provider}" is not in the catalog: its incidents are stored under that id, but nothing in a stack matches them until a catalog entry exists (add providers/${options.provider}.yaml and list its directory under \`providers:\` in .downstack.yml; see CONTRIBUTING.md)`,
    });
  if (incoming.length === 0)
    throw new ImportError(problems.length > 0 ? problems : ['no incidents in the documents given']);

  // Read, merge and write under the index lock, so a sync running at the same time cannot undo the import.
  const lock = options.dryRun
    ? undefined
    : await acquireLock(options.index.dir, { waitMs: options.lockWaitMs ?? 30_000 }).catch((error: unknown) => {
        throw indexWriteError(error, options.index.dir);
      });
  try {
    if (!options.dryRun) await options.index.recoverBatch();
    const result = await mergeAndWrite(incoming, options);
    return { ...result, entries, problems, warnings };
  } finally {
    await lock?.release();
  }
}

async function mergeAndWrite(
  incoming: Incident[],
  options: ImportOptions,
): Promise<Pick<ImportResult, 'incidents' | 'written'>> {
  const problems: string[] = [];
  const files: IndexFile[] = [];
  const imported = new Map<string, ImportedIncident>();
  // Several entries naming one history page do not make that page one incident.
  const shared = sharedUrlsOf(incoming);
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
    const fromBefore = new Set(stored.map((incident) => incident.id));
    for (const incident of incoming.filter((item) => item.provider === provider)) {
      const at = stored.findIndex((known) => isSameIncident(known, incident, shared));
      const snapshotMatch =
        at < 0 ? layered.incidents.find((known) => isSameIncident(known, incident, shared)) : undefined;
      const known = at >= 0 ? (stored[at] as Incident) : snapshotMatch;
      const merged = known ? mergePair(known, incident) : incident;
      if (at >= 0) stored[at] = merged;
      else stored.push(merged);
      const previous = imported.get(merged.id);
      imported.set(merged.id, {
        provider,
        id: merged.id,
        title: merged.title,
        action: previous?.action ?? (fromBefore.has(merged.id) || snapshotMatch ? 'merged' : 'added'),
        entries: (previous?.entries ?? 0) + 1,
        replay: replayWindow(merged),
        incident: merged,
      });
    }
    stored.sort((a, b) => byText(b.startedAt, a.startedAt));
    files.push({ ...(file ?? {}), schemaVersion: INDEX_SCHEMA_VERSION, provider, incidents: stored });
  }
  if (problems.length > 0) throw new ImportError(problems);
  if (!options.dryRun) await options.index.writeBatch(files);
  return {
    incidents: [...imported.values()],
    written: options.dryRun ? [] : files.map((file) => options.index.fileFor(file.provider)),
  };
}

/** The more trusted source is the base (an API over a feed over a write-up); the known record's id is kept. */
function mergePair(known: Incident, incoming: Incident): Incident {
  return sourceRank(incoming.source) > sourceRank(known.source)
    ? combineIncidents(incoming, known, known.id)
    : combineIncidents(known, incoming, known.id);
}
