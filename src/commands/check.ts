// `downstack check`: inputs → providers → incidents → replay windows, with the pre-deploy gate (`--fail-on`).
import type { Command } from 'commander';
import { runCheck } from '../check.js';
import { applyIgnores, describeExpired } from '../config/ignores.js';
import { createDnsStage } from '../dns/stage.js';
import { withRuns } from '../jobs/runs.js';
import { EXIT, UsageError } from '../errors.js';
import type { Finding } from '../model.js';
import type { CheckFormat } from '../report/formats.js';
import type { ReachSetting } from '../reach.js';
import { renderCheck } from '../report/render.js';
import { cleanLine, type SafeText, text } from '../sanitize.js';
import { publishedNote } from '../report/published-note.js';
import { parseTimeArg } from '../time.js';
import { type CliContext, type CommonOptions, dnsSettings, type ResolveFlags } from './context.js';
import { dnsNote } from './dns-note.js';

interface CheckFlags extends CommonOptions, ResolveFlags {
  since: string;
  until: string;
  format: CheckFormat;
  failOn: 'none' | 'active' | 'any';
  omit?: string[];
  includeMaintenance?: boolean;
  snapshot: boolean;
  output?: string;
  sync?: boolean;
  strict?: boolean;
  allowPrivateEndpoints?: boolean;
  lead?: number;
  indexUrl?: string;
  limit: number;
  reach: ReachSetting;
}

export async function runCheckCommand(command: Command, context: CliContext, paths: string[]): Promise<void> {
  const settings = await context.settings<CheckFlags>('check', command, paths);
  const { flags, config } = settings;
  const since = parseTimeArg(flags.since, context.now, '--since');
  const until = parseTimeArg(flags.until, context.now, '--until');
  if (since > until) throw new UsageError(`--since (${since.toISOString()}) is after --until (${until.toISOString()})`);
  // Sync and check both scan the paths; standard input can only be read once.
  const stdin = once(() => context.readStdin());
  const catalog = settings.catalog();
  const index = settings.indexDir;
  // One DNS stage for the whole run: the sync before a gate and the check share its lookups and its deadline.
  const dns = createDnsStage(dnsSettings(flags, context));
  const published = flags.indexUrl
    ? new (await import('../incidents/published.js')).PublishedIndex({
        url: flags.indexUrl,
        localDir: index,
        ...(flags.snapshot ? {} : { snapshotDir: null }),
        offline: context.offline,
        http: { userAgent: (await import('../sync/sync.js')).userAgent() },
      })
    : undefined;
  try {
    // A pre-deploy gate decides on open incidents, so it asks the status pages first unless told not to. With a
    // published index the fleet's publisher syncs, and each job only reads what it published.
    const wantSync = !published && (flags.sync ?? flags.failOn === 'active');
    let syncFailed = false;
    if (wantSync && context.offline) {
      syncFailed = true;
      if (flags.sync || flags.strict)
        context.stderr.write('warning: DOWNSTACK_OFFLINE=1, so nothing was synced; using the local index\n');
    } else if (wantSync) {
      const warn = (line: SafeText) => {
        syncFailed = true;
        context.stderr.write(text`${line}\n`);
      };
      // The sync (its HTTP client, every status-page reader) is loaded only for a run that syncs.
      const { syncBeforeCheck } = await import('../sync/check-sync.js');
      await syncBeforeCheck({
        paths,
        indexDir: index,
        catalog,
        readStdin: stdin,
        warn,
        dns,
        ...(flags.allowPrivateEndpoints ? {} : { publicOnly: settings.repositoryProviders() }),
      });
    }
    if (flags.strict && syncFailed) {
      context.stderr.write(
        'downstack: --strict: the live status of this stack could not be fetched, so the check does not decide from the local index\n',
      );
      context.setExitCode(EXIT.usage);
      return;
    }
    const report = await runCheck({
      paths,
      indexDir: index,
      since,
      until,
      now: context.now,
      catalog,
      omit: flags.omit as Array<'dev'> | undefined,
      includeMaintenance: flags.includeMaintenance,
      reach: flags.reach,
      ...(flags.snapshot ? {} : { snapshotDir: null }),
      readStdin: stdin,
      dns,
      ...(flags.lead === undefined ? {} : { leadMinutes: flags.lead }),
      ...(published ? { incidents: published } : {}),
    });
    if (report.index.published) {
      context.stderr.write(text`${publishedNote(report.index.published, context.now)}\n`);
      if (flags.strict && report.index.published.state !== 'fresh') {
        context.stderr.write(
          'downstack: --strict: the published index could not be read, so the check does not decide from an older copy\n',
        );
        context.setExitCode(EXIT.usage);
        return;
      }
    }
    const skipped = dnsNote(report.dns);
    if (skipped) context.stderr.write(`${skipped}\n`);
    const problems = [...report.errors, ...report.inputs.flatMap((input) => input.errors)];
    context.reportProblems(problems);
    for (const message of report.index.problems) context.stderr.write(text`warning: ${cleanLine(message, 500)}\n`);

    const readable = report.inputs.filter(
      (input) => input.dependencies.length > 0 || (input.jobs?.length ?? 0) > 0 || input.errors.length === 0,
    );
    if (readable.length === 0) {
      if (problems.length > 0) {
        context.stderr.write('downstack: nothing could be read (see the errors above)\n');
        context.setExitCode(EXIT.usage);
      } else {
        context.stderr.write(
          text`downstack: no supported input found in ${paths.join(', ')} (package.json, lockfiles, Terraform, domain lists)\n`,
        );
        context.setExitCode(EXIT.noInput);
      }
      return;
    }
    const ignores = applyIgnores(report.findings, config?.ignore ?? [], context.now);
    for (const expired of ignores.expired)
      context.stderr.write(text`warning: ${cleanLine(describeExpired(expired), 500)}\n`);
    for (const { finding, rule } of ignores.ignored)
      context.stderr.write(
        text`ignored: ${rule.file}:${rule.line}: ${finding.provider} ${cleanLine(finding.incident.id, 100)} until ${rule.expires} (${cleanLine(rule.reason, 200)})\n`,
      );
    const shown = {
      ...report,
      findings: ignores.findings,
      replay: withRuns(ignores.replay, report.jobs, context.now),
    };
    await context.emit(
      await renderCheck(shown, flags.format, {
        now: context.now,
        color: context.useColor(flags) && !flags.output,
        notes: ignores,
        limit: flags.limit,
      }),
      flags.output,
    );
    if (failsGate(shown.findings, flags.failOn)) context.setExitCode(EXIT.failOn);
  } finally {
    dns.close();
  }
}

function failsGate(findings: Finding[], failOn: CheckFlags['failOn']): boolean {
  if (failOn === 'any') return findings.length > 0;
  if (failOn === 'active') return findings.some((finding) => finding.active);
  return false;
}

/** Sync and check both scan the paths, and standard input can be read only once. */
function once<T>(read: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | undefined;
  return () => (result ??= read());
}
