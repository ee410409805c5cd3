// What sync says on stderr: a redrawn bar in a terminal, one line per provider in a log, and a summary.
// Pure formatting; the command decides where it goes. Every remote-derived string is cleaned first.
import { cleanLine } from '../sanitize.js';
import type { ProviderReport, SyncReport } from './sync.js';

export function progressBar(done: number, total: number, label: string, columns: number): string {
  const counter = `${done}/${total}`;
  const width = Math.max(10, Math.min(40, columns - counter.length - 30));
  const filled = total === 0 ? width : Math.round((done / total) * width);
  const text = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${counter} ${cleanLine(label, 40)}`;
  return `\r${text.slice(0, Math.max(20, columns - 1)).padEnd(Math.max(20, columns - 1))}`;
}

export function providerLine(report: ProviderReport): string {
  const id = cleanLine(report.provider, 60);
  switch (report.outcome) {
    case 'synced':
      return `${id}: synced (${[report.added && `${report.added} new`, report.updated && `${report.updated} updated`, report.closed && `${report.closed} closed`].filter(Boolean).join(', ') || 'refreshed'}; ${report.total ?? 0} in the index)`;
    case 'unchanged':
      return `${id}: unchanged (${report.total ?? 0} in the index)`;
    case 'skipped':
      return `${id}: skipped: ${cleanLine(report.reason ?? '', 300)}`;
    case 'failed':
      if (report.total === undefined) return `${id}: failed: ${cleanLine(report.reason ?? '', 300)}`;
      return `${id}: failed: ${cleanLine(report.reason ?? '', 300)} (${report.total > 0 ? `kept the ${report.total} incidents it had` : 'nothing indexed yet'})`;
  }
}

export function summaryLines(report: SyncReport, elapsedMs: number): string[] {
  const count = (outcome: ProviderReport['outcome']) =>
    report.providers.filter((entry) => entry.outcome === outcome).length;
  const { requests, retries, notModified } = report.http;
  const lines = [
    `sync: ${count('synced')} synced, ${count('unchanged')} unchanged, ${count('failed')} failed${count('skipped') ? `, ${count('skipped')} skipped` : ''} ` +
      `(${requests} requests, ${notModified} not modified, ${retries} retries, ${(elapsedMs / 1000).toFixed(1)} s)`,
  ];
  if (report.lockRecovered)
    lines.push(`  note: took over a stale lock left by ${cleanLine(report.lockRecovered, 120)}`);
  for (const entry of report.providers)
    if (entry.outcome === 'failed' || entry.outcome === 'skipped') lines.push(`  ${providerLine(entry)}`);
  for (const entry of report.providers) {
    for (const warning of entry.warnings.slice(0, 3))
      lines.push(`  warning: ${cleanLine(entry.provider, 60)}: ${cleanLine(warning, 300)}`);
    if (entry.warnings.length > 3)
      lines.push(`  warning: ${cleanLine(entry.provider, 60)}: and ${entry.warnings.length - 3} more`);
  }
  return lines;
}
