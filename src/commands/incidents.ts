// `downstack incidents`: what the index holds (snapshot, sync and import), filtered by provider and window.
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import type { Incident } from '../model.js';
import { cleanLine, jsonDocument, text } from '../sanitize.js';
import { IncidentIndex } from '../incidents/store.js';
import { overlapsWindow, replayWindow } from '../replay.js';
import { formatRange, parseTimeArg } from '../time.js';
import { byText } from '../text-order.js';
import type { CliContext } from './context.js';

interface IncidentsFlags {
  provider?: string[];
  since?: string;
  until: string;
  format: string;
  snapshot: boolean;
}

export async function runIncidentsCommand(command: Command, context: CliContext): Promise<void> {
  const settings = await context.settings<IncidentsFlags>('incidents', command, []);
  const { flags } = settings;
  const catalog = settings.catalog();
  const ids = flags.provider ?? [...catalog.providers.keys()];
  for (const id of ids)
    if (!catalog.providers.has(id)) throw new UsageError(`unknown provider "${id}" (see \`downstack providers\`)`);
  const since = flags.since ? parseTimeArg(flags.since, context.now, '--since') : new Date(0);
  const until = parseTimeArg(flags.until, context.now, '--until');
  const index = flags.snapshot ? new IncidentIndex(settings.indexDir) : new IncidentIndex(settings.indexDir, null);
  const incidents: Incident[] = [];
  for (const id of ids) {
    const entry = await index.read(id);
    for (const message of entry.problems) context.stderr.write(text`warning: ${cleanLine(message, 500)}\n`);
    incidents.push(
      ...entry.incidents.filter((incident) => overlapsWindow(replayWindow(incident), since, until, context.now)),
    );
  }
  incidents.sort((a, b) => byText(b.startedAt, a.startedAt));
  if (flags.format === 'json') {
    await context.emit(jsonDocument(incidents));
    return;
  }
  if (incidents.length === 0) await context.emit('No incidents in the index for that selection.\n');
  for (const incident of incidents) {
    const name = catalog.providers.get(incident.provider)?.name ?? incident.provider;
    await context.emit(
      text`${formatRange(incident.startedAt, incident.resolvedAt).padEnd(38)} ${cleanLine(name, 60)}: ${cleanLine(incident.title, 100)}\n`,
    );
  }
}
