// `sync --backfill`: the whole history of the selected providers' status pages (src/sync/backfill.ts). The first
// Ctrl-C stops asking, merges what was fetched and exits 130; what is left is fetched by the next run.
import type { Catalog } from '../catalog/loader.js';
import { runBackfill } from '../sync/backfill.js';
import { backfillEventLine, backfillSummary } from '../sync/backfill-progress.js';
import { EXIT } from '../errors.js';
import { text } from '../sanitize.js';
import type { CliContext } from './context.js';

export interface BackfillFlags {
  since?: Date;
  rate: number;
  concurrency: number;
  timeout: number;
  publicOnly?: ReadonlySet<string>;
}

export async function backfillCommand(
  ids: string[],
  indexDir: string,
  catalog: Catalog,
  flags: BackfillFlags,
  context: CliContext,
): Promise<void> {
  const controller = new AbortController();
  const onInterrupt = () => {
    if (controller.signal.aborted) process.exit(EXIT.interrupted);
    context.stderr.write(
      'backfill: stopping — merging what was fetched (Ctrl-C again to quit at once; nothing is lost)\n',
    );
    controller.abort();
  };
  process.on('SIGINT', onInterrupt);
  const started = Date.now();
  try {
    const run = await runBackfill({
      indexDir,
      catalog,
      providers: ids,
      ...(flags.since ? { since: flags.since } : {}),
      rate: flags.rate,
      http: { concurrency: flags.concurrency, timeoutMs: flags.timeout * 1000 },
      signal: controller.signal,
      ...(flags.publicOnly ? { publicOnly: flags.publicOnly } : {}),
      onEvent: (event) => {
        const line = backfillEventLine(event);
        if (line) context.stderr.write(text`${line}\n`);
      },
    });
    for (const line of backfillSummary(run, Date.now() - started, controller.signal.aborted))
      context.stderr.write(text`${line}\n`);
    if (controller.signal.aborted) context.setExitCode(EXIT.interrupted);
    else if (run.providers.some((report) => report.outcome === 'failed' || report.outcome === 'partial'))
      context.setExitCode(EXIT.syncFailed);
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}
