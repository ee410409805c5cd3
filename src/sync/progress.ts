// What sync says on stderr: a redrawn bar in a terminal, one line per provider in a log, and a summary.
// Pure formatting; the command decides where it goes. SafeText, so the bar may redraw with a carriage return.
import { cleanLine, type SafeText, text } from '../sanitize.js';
import type { ProviderReport, SyncReport } from './sync.js';

export function progressBar(done: number, total: number, label: string, columns: number): SafeText {
  const counter = `${done}/${total}`;
  const width = Math.max(10, Math.min(40, columns - counter.length - 30));
  const filled = total === 0 ? width : Math.round((done / total) * width);
  const bar = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${counter} ${cleanLine(label, 40)}`;
  return text`\r${bar.slice(0, Math.max(20, columns - 1)).padEnd(Math.max(20, columns - 1))}`;
}

export function providerLine(report: ProviderReport): SafeText {
  const id = cleanLine(report.provider, 60);
  switch (report.outcome) {
    case 'synced':
      return text`${id}: synced (${[report.added && `${report.added} new`, report.updated && `${report.updated} updated`, report.closed && `${report.closed} closed`].filter(Boolean).join(', ') || 'refreshed'}; ${report.total ?? 0} in the index)`;
    case 'unchanged':
      return text`${id}: unchanged (${report.total ?? 0} in the index)`;
    case 'skipped':
      return text`${id}: skipped: ${cleanLine(report.reason ?? '', 300)}`;
    case 'failed':
      if (report.total === undefined) return text`${id}: failed: ${cleanLine(report.reason ?? '', 300)}`;
      return text`${id}: failed: ${cleanLine(report.reason ?? '', 300)} (${report.total > 0 ? `kept the ${report.total} incidents it had` : 'nothing indexed yet'})`;
  }
}

export function summaryLines(report: SyncReport, elapsedMs: number): SafeText[] {
  const count = (outcome: ProviderReport['outcome']) =>
    report.providers.filter((entry) => entry.outcome === outcome).length;
  const { requests, retries, notModified } = report.http;
  const lines = [
    text`sync: ${count('synced')} synced, ${count('unchanged')} unchanged, ${count('failed')} failed${count('skipped') ? `, ${count('skipped')} skipped` : ''} (${requests} requests, ${notModified} not modified, ${retries} retries, ${(elapsedMs / 1000).toFixed(1)} s)`,
  ];
  if (report.lockRecovered)
    lines.push(text`  note: took over a stale lock left by ${cleanLine(report.lockRecovered, 120)}`);
  for (const entry of report.providers)
    if (entry.outcome === 'failed' || entry.outcome === 'skipped') lines.push(text`  ${providerLine(entry)}`);
  for (const entry of report.providers) {
    for (const warning of entry.warnings.slice(0, 3))
      lines.push(text`  warning: ${cleanLine(entry.provider, 60)}: ${cleanLine(warning, 300)}`);
    if (entry.warnings.length > 3)
      lines.push(text`  warning: ${cleanLine(entry.provider, 60)}: and ${entry.warnings.length - 3} more`);
  }
  return lines;
}
