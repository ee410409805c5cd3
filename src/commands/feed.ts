// `downstack feed`: the incidents that touch one provider (`--provider`) or the whole stack (paths), as Atom.
import { createHash } from 'node:crypto';
import type { Command } from 'commander';
import { runCheck } from '../check.js';
import type { CliContext, CommonOptions } from './context.js';
import { UsageError } from '../errors.js';
import { IncidentIndex } from '../incidents/store.js';
import type { ReachSetting } from '../reach.js';
import { overlapsWindow, replayWindow } from '../replay.js';
import { renderAtom, type FeedDocument, type FeedEntry } from '../report/atom.js';
import { parseTimeArg, formatUtc } from '../time.js';

export interface FeedFlags extends CommonOptions {
  provider?: string;
  since: string;
  until: string;
  includeMaintenance?: boolean;
  output?: string;
  reach?: ReachSetting;
}

export async function runFeedCommand(
  command: Command,
  context: CliContext,
  paths: string[],
  cliFlags: FeedFlags,
): Promise<void> {
  if (cliFlags.provider && paths.length > 0)
    throw new UsageError('feed takes either --provider ID or paths of a stack, not both');
  const scanned = paths.length > 0 ? paths : ['.'];
  const settings = await context.settings<FeedFlags>('feed', command, cliFlags.provider ? [] : scanned);
  const { flags, indexDir } = settings;
  const catalog = settings.catalog();
  const now = context.now;
  const since = parseTimeArg(flags.since, now, '--since');
  const until = parseTimeArg(flags.until, now, '--until');
  if (since > until) throw new UsageError(`--since (${since.toISOString()}) is after --until (${until.toISOString()})`);

  let feed: FeedDocument;
  if (flags.provider) {
    const provider = catalog.providers.get(flags.provider);
    if (!provider) throw new UsageError(`unknown provider "${flags.provider}" (see \`downstack providers\`)`);
    const entry = await new IncidentIndex(indexDir).read(provider.id);
    context.reportProblems(entry.problems.map((message) => ({ file: indexDir, message })));
    const entries: FeedEntry[] = entry.incidents
      .filter((incident) => flags.includeMaintenance || incident.kind !== 'maintenance')
      .map((incident) => ({
        incident,
        providerName: provider.name,
        components: incident.components,
        replay: replayWindow(incident),
      }))
      .filter((candidate) => overlapsWindow(candidate.replay, since, until, now));
    feed = {
      id: `urn:downstack:feed:provider:${encodeURIComponent(provider.id)}`,
      title: `${provider.name} incidents (downstack)`,
      subtitle: `Incidents of ${provider.name} from ${formatUtc(since.toISOString())} to ${formatUtc(until.toISOString())}, as indexed by downstack`,
      now,
      entries,
    };
  } else {
    const report = await runCheck({
      paths: scanned,
      indexDir,
      since,
      until,
      now,
      catalog,
      includeMaintenance: flags.includeMaintenance,
      ...(flags.reach ? { reach: flags.reach } : {}),
      readStdin: context.readStdin,
    });
    context.reportProblems([...report.errors, ...report.inputs.flatMap((input) => input.errors)]);
    const providers = [...new Set(report.exposures.map((exposure) => exposure.provider))].sort();
    // One entry per incident: two exposures (say, direct and through a fourth party) can find the same one.
    const seen = new Map<string, FeedEntry>();
    for (const finding of report.findings) {
      const key = `${finding.provider}\u0000${finding.incident.id}`;
      const known = seen.get(key);
      if (known) known.components = [...new Set([...known.components, ...finding.components])];
      else
        seen.set(key, {
          incident: finding.incident,
          providerName: catalog.providers.get(finding.provider)?.name ?? finding.provider,
          components: [...finding.components],
          replay: finding.replay,
        });
    }
    feed = {
      // The stack is known by the providers it uses, so the same stack keeps its feed id between runs.
      id: `urn:downstack:feed:stack:${createHash('sha256').update(providers.join('\n')).digest('hex').slice(0, 16)}`,
      title: 'Provider incidents touching this stack (downstack)',
      subtitle: `Incidents that touched ${providers.map((id) => catalog.providers.get(id)?.name ?? id).join(', ') || 'no known provider'}`,
      now,
      entries: [...seen.values()],
    };
  }
  await context.emit(renderAtom(feed), flags.output);
}
