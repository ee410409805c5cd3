// `downstack sync`: refresh the index for the stack's providers (default), `--provider ID…` or `--all`.
import type { Command } from 'commander';
import type { Catalog } from '../catalog/loader.js';
import { createDnsStage } from '../dns/stage.js';
import { type CliContext, type CommonOptions, dnsSettings, type ResolveFlags } from './context.js';
import { EXIT, UsageError } from '../errors.js';
import { ownPackages, scanPaths } from '../scan.js';
import { cleanLine, type SafeText, text } from '../sanitize.js';
import { progressBar, providerLine, summaryLines } from '../sync/progress.js';
import { stackProviders } from '../sync/check-sync.js';
import { runSync, type SyncEvent } from '../sync/sync.js';
import { publishIndex, type PublishReport } from '../incidents/publish.js';
import { IncidentIndex } from '../incidents/store.js';
import { parseTimeArg } from '../time.js';
import { backfillCommand } from './backfill.js';

interface SyncFlags extends CommonOptions, ResolveFlags {
  all?: boolean;
  provider?: string[];
  concurrency: number;
  timeout: number;
  progress?: boolean;
  allowPrivateEndpoints?: boolean;
  publish?: string;
  backfill?: boolean;
  since?: string;
  rate: number;
}

export async function runSyncCommand(command: Command, context: CliContext, paths: string[]): Promise<void> {
  const settings = await context.settings<SyncFlags>('sync', command, paths);
  const { flags } = settings;
  const catalog = settings.catalog();
  const ids = await selectProviders(paths, flags, catalog, context);
  if (ids.length === 0) {
    context.stderr.write(text`downstack: no providers found in ${paths.join(', ')}; use --provider ID or --all\n`);
    context.setExitCode(EXIT.noInput);
    return;
  }
  if (flags.since && !flags.backfill) throw new UsageError('--since goes with --backfill');
  if (flags.backfill) {
    await backfillCommand(
      ids,
      settings.indexDir,
      catalog,
      {
        ...(flags.since ? { since: parseTimeArg(flags.since, context.now, '--since') } : {}),
        rate: flags.rate,
        concurrency: flags.concurrency,
        timeout: flags.timeout,
        ...(flags.allowPrivateEndpoints ? {} : { publicOnly: settings.repositoryProviders() }),
      },
      context,
    );
    if (flags.publish) await publishTo(flags.publish, settings.indexDir, context);
    return;
  }
  const started = Date.now();
  const report = await runSync({
    indexDir: settings.indexDir,
    catalog,
    providers: ids,
    http: { concurrency: flags.concurrency, timeoutMs: flags.timeout * 1000 },
    onEvent: progressWriter(context, flags.progress !== false && context.stderr.isTTY),
    ...(flags.allowPrivateEndpoints ? {} : { publicOnly: settings.repositoryProviders() }),
  });
  for (const line of summaryLines(report, Date.now() - started)) context.stderr.write(text`${line}\n`);
  if (flags.publish) await publishTo(flags.publish, settings.indexDir, context);
  if (report.providers.some((entry) => entry.outcome === 'failed')) context.setExitCode(EXIT.syncFailed);
}

async function selectProviders(
  paths: string[],
  flags: SyncFlags,
  catalog: Catalog,
  context: CliContext,
): Promise<string[]> {
  if (flags.all) return [...catalog.providers.keys()];
  if (flags.provider) {
    const unknown = flags.provider.filter((id) => !catalog.providers.has(id));
    if (unknown.length > 0)
      throw new UsageError(
        `unknown provider ${unknown.map((id) => `"${cleanLine(id, 60)}"`).join(', ')} (see \`downstack providers\`)`,
      );
    return [...new Set(flags.provider)];
  }
  const scan = await scanPaths(paths, { readStdin: context.readStdin });
  context.reportProblems(scan.errors);
  const dns = createDnsStage(dnsSettings(flags, context));
  try {
    return await stackProviders(
      scan.inputs.flatMap((input) => input.dependencies),
      catalog,
      dns,
      ownPackages(scan.inputs),
    );
  } finally {
    dns.close();
  }
}

async function publishTo(dir: string, indexDir: string, context: CliContext): Promise<void> {
  const published = await publishIndex(new IncidentIndex(indexDir), dir, new Date());
  for (const line of publishLines(published)) context.stderr.write(text`${line}\n`);
}

function publishLines(report: PublishReport): SafeText[] {
  const size =
    report.bytes >= 1024 * 1024
      ? `${(report.bytes / 1024 / 1024).toFixed(1)} MB`
      : `${Math.ceil(report.bytes / 1024)} KB`;
  return [
    text`publish: ${report.providers} providers, ${report.incidents} incidents (${size}) → ${cleanLine(report.dir, 200)}/manifest.json`,
    ...report.skipped.map((reason) => text`  warning: left out: ${cleanLine(reason, 300)}`),
    ...(report.removed.length > 0
      ? [
          text`  removed ${report.removed.length} provider files no longer in the index: ${report.removed.map((id) => cleanLine(id, 60)).join(', ')}`,
        ]
      : []),
  ];
}

function progressWriter(context: CliContext, bar: boolean): (event: SyncEvent) => void {
  const columns = context.stderr.columns ?? 80;
  return (event) => {
    if (event.type === 'start') {
      if (event.lockRecovered)
        context.stderr.write(text`sync: took over a stale lock (${cleanLine(event.lockRecovered, 120)})\n`);
      if (bar) context.stderr.write(progressBar(0, event.total, '', columns));
      return;
    }
    if (!bar) {
      context.stderr.write(text`${providerLine(event.report)}\n`);
      return;
    }
    context.stderr.write(progressBar(event.done, event.total, event.report.provider, columns));
    if (event.done === event.total) context.stderr.write(text`\r${' '.repeat(Math.max(0, columns - 1))}\r`);
  };
}
