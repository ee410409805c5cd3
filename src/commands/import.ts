// `downstack import FILE…`: incident documents (Statuspage JSON, history feeds, incidentlib records, incident pages and
// postmortems) into the incident index, all or nothing.
import { readFile, stat } from 'node:fs/promises';
import type { Command } from 'commander';
import type { CliContext } from './context.js';
import { EXIT, ImportError, ParseError } from '../errors.js';
import { IncidentIndex } from '../incidents/store.js';
import {
  importDocuments,
  MAX_DOCUMENT_BYTES,
  tooBig,
  type ImportDocument,
  type ImportResult,
} from '../incidents/import/index.js';
import { cleanLine, joinText, jsonDocument, type SafeText, text } from '../sanitize.js';
import { formatRange } from '../time.js';

interface ImportFlags {
  provider?: string;
  dryRun?: boolean;
  snapshot: boolean;
  format: 'table' | 'json';
}

export async function runImportCommand(command: Command, context: CliContext, files: string[]): Promise<void> {
  const settings = await context.settings<ImportFlags>('import', command, []);
  const { flags } = settings;
  const documents: ImportDocument[] = [];
  const unreadable: string[] = [];
  for (const file of files) {
    if (file === '-') documents.push({ file: '<stdin>', text: await context.readStdin() });
    else
      await readDocumentFile(file).then(
        (document) => documents.push(document),
        (error: unknown) => {
          if (!(error instanceof ParseError)) throw error;
          unreadable.push(error.located);
        },
      );
  }
  if (unreadable.length > 0) throw new ImportError(unreadable);
  const result = await importDocuments(documents, {
    catalog: settings.catalog(),
    index: flags.snapshot ? new IncidentIndex(settings.indexDir) : new IncidentIndex(settings.indexDir, null),
    ...(flags.provider ? { provider: flags.provider } : {}),
    ...(flags.dryRun ? { dryRun: true } : {}),
  });
  context.reportProblems(result.warnings);
  for (const problem of result.problems) context.stderr.write(text`${cleanLine(problem, 600)}\n`);
  if (result.problems.length > 0) context.setExitCode(EXIT.partial);
  await context.emit(
    flags.format === 'json' ? jsonDocument(toJson(result)) : renderImport(result, flags.dryRun === true),
  );
}

async function readDocumentFile(file: string): Promise<ImportDocument> {
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new ParseError(file, undefined, 'not a file (import takes documents, not directories)');
    if (info.size > MAX_DOCUMENT_BYTES) throw new ParseError(file, undefined, tooBig(info.size));
    return { file, text: await readFile(file, 'utf8') };
  } catch (error) {
    if (error instanceof ParseError) throw error;
    throw new ParseError(
      file,
      undefined,
      `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

function toJson(result: ImportResult) {
  return {
    imported: result.incidents.map((item) => ({
      provider: item.provider,
      id: item.id,
      title: item.title,
      action: item.action,
      entries: item.entries,
      replay: item.replay,
      conflicts: item.incident.conflicts ?? [],
    })),
    entries: result.entries,
    problems: result.problems,
    written: result.written,
  };
}

function renderImport(result: ImportResult, dryRun: boolean): SafeText {
  const lines: SafeText[] = [];
  for (const item of result.incidents) {
    lines.push(
      text`${item.action.padEnd(7)} ${item.provider}/${cleanLine(item.id, 120)}  replay ${formatRange(item.replay.from, item.replay.to)}  ${cleanLine(item.title, 80)}`,
    );
    for (const conflict of item.incident.conflicts ?? []) lines.push(text`        ! ${cleanLine(conflict, 300)}`);
  }
  const added = result.incidents.filter((item) => item.action === 'added').length;
  const counts = `${result.incidents.length} incident(s) (${added} new, ${result.incidents.length - added} merged into known ones) from ${result.entries} entr${result.entries === 1 ? 'y' : 'ies'}`;
  const rejected = result.problems.length > 0 ? `; ${result.problems.length} could not be read (listed on stderr)` : '';
  lines.push(
    dryRun
      ? text`dry run: ${counts} checked, nothing written${rejected}`
      : text`${counts} imported into ${result.written.length} index file(s)${rejected}`,
  );
  return text`${joinText(lines)}\n`;
}
