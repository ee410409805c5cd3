// The bundled history's records as shipped: every year file of a provider, each record once (one that spans a new
// year is in both years' files).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HistoryFile, HistoryRecord } from '../../src/incidents/history.js';

export const HISTORY = 'history';

/** The providers the bundled history has a folder for. */
export function historyProviders(dir = HISTORY): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

export function historyRecords(provider: string, dir = HISTORY): HistoryRecord[] {
  const byId = new Map<string, HistoryRecord>();
  for (const name of readdirSync(join(dir, provider)).sort().reverse()) {
    const file = JSON.parse(readFileSync(join(dir, provider, name), 'utf8')) as HistoryFile;
    for (const record of file.incidents) if (!byId.has(record.id)) byId.set(record.id, record);
  }
  return [...byId.values()].sort((a, b) => b.startedAt.localeCompare(a.startedAt) || a.id.localeCompare(b.id));
}
