// What a backfill says on stderr: a line per history page and every few records while it runs, and a summary.
// Pure formatting; the command decides where it goes. Every remote-derived string is cleaned first.
import { cleanLine } from '../sanitize.js';
import type { BackfillEvent, BackfillReport, BackfillRun } from './backfill.js';

/** Record progress is said every this many records (and at the last), so a long backfill stays readable in a log. */
const RECORD_STEP = 25;

export function backfillEventLine(event: BackfillEvent): string | undefined {
  const id = cleanLine(event.type === 'done' ? event.report.provider : event.provider, 60);
  if (event.type === 'page')
    return `${id}: history page ${event.page}${event.month ? ` (${event.month.slice(0, 7)})` : ''}, ${event.listed} incidents listed`;
  if (event.type === 'record')
    return event.done % RECORD_STEP === 0 || event.done === event.total
      ? `${id}: ${event.done}/${event.total} records fetched`
      : undefined;
  return backfillLine(event.report);
}

export function backfillLine(report: BackfillReport): string {
  const id = cleanLine(report.provider, 60);
  const missing = report.missing.length > 0 ? `; ${report.missing.length} answered 404` : '';
  switch (report.outcome) {
    case 'backfilled':
      return `${id}: backfilled (${report.fetched} records from ${report.pages} history pages, ${report.added} new in the index${missing})`;
    case 'up-to-date':
      return `${id}: up to date (${report.pages} history pages read, nothing new to fetch${missing})`;
    case 'partial':
      return `${id}: partly backfilled (${report.fetched} records fetched, ${report.added} new; ${report.left} left for the next run${missing})`;
    case 'synced':
      return `${id}: synced (${cleanLine(report.reason ?? '', 200)})`;
    case 'skipped':
    case 'failed':
      return `${id}: ${report.outcome}: ${cleanLine(report.reason ?? '', 300)}`;
  }
}

export function backfillSummary(run: BackfillRun, elapsedMs: number, interrupted: boolean): string[] {
  const { requests, retries } = run.http;
  const fetched = run.providers.reduce((sum, report) => sum + report.fetched, 0);
  const added = run.providers.reduce((sum, report) => sum + report.added, 0);
  const lines = [
    `backfill: ${fetched} records fetched, ${added} new in the index (${requests} requests, ${retries} retries, ${(elapsedMs / 1000).toFixed(1)} s)${interrupted ? ' — interrupted; run it again to go on' : ''}`,
  ];
  for (const report of run.providers) {
    if (report.missing.length > 0)
      lines.push(
        `  ${cleanLine(report.provider, 60)}: records not found (404): ${report.missing
          .slice(0, 20)
          .map((code) => cleanLine(code, 40))
          .join(', ')}${report.missing.length > 20 ? `, and ${report.missing.length - 20} more` : ''}`,
      );
    for (const warning of report.warnings.slice(0, 6))
      lines.push(`  warning: ${cleanLine(report.provider, 60)}: ${cleanLine(warning, 300)}`);
    if (report.warnings.length > 6)
      lines.push(`  warning: ${cleanLine(report.provider, 60)}: and ${report.warnings.length - 6} more`);
  }
  return lines;
}
