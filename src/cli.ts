// The only module that touches process, console and exit codes; everything below returns values or throws.
import { Command, Option } from 'commander';
import { runCheck } from './check.js';
import { importCommand } from './commands/import.js';
import { registerProvidersCommand } from './commands/providers.js';
import { registerSync } from './commands/sync.js';
import { loadCatalog } from './catalog/loader.js';
import { registerExplainCommand } from './commands/explain.js';
import { registerFeed } from './commands/feed.js';
import { applyIgnores, describeExpired } from './config/ignores.js';
import { findConfig, loadConfig } from './config/load.js';
import { CatalogError, DownstackError, ParseError, UsageError } from './errors.js';
import { writeFileAtomic } from './fs-atomic.js';
import { IncidentIndex, resolveIndexDir } from './incidents/store.js';
import type { Finding, Incident, InputProblem } from './model.js';
import { PROVIDERS_DIR } from './paths.js';
import { CHECK_FORMATS, type CheckFormat } from './report/formats.js';
import { renderCheck } from './report/render.js';
import { syncBeforeCheck } from './sync/check-sync.js';
import { cleanLine } from './sanitize.js';
import { formatRange, parseTimeArg } from './time.js';
import { VERSION } from './version.js';

export const EXIT = { ok: 0, failOn: 1, usage: 2, noInput: 3 } as const;

export interface CommonOptions {
  index?: string;
  color?: boolean;
}

interface CheckFlags extends CommonOptions {
  since: string;
  until: string;
  format: CheckFormat;
  failOn: 'none' | 'active' | 'any';
  omit?: string[];
  includeMaintenance?: boolean;
  snapshot: boolean;
  config?: string;
  output?: string;
  sync?: boolean;
  strict?: boolean;
}

/** Options shared by several commands, declared once. */
export const indexOption = () => new Option('--index <dir>', 'incident index directory (default: $DOWNSTACK_INDEX or the user cache dir)');
export const sinceOption = (fallback?: string) => new Option('--since <time>', 'start of the window: ISO time (2021-08-10T19:00Z) or duration back from now (30d)').default(fallback);
export const snapshotOption = () => new Option('--no-snapshot', 'answer from the local index alone, without the embedded snapshot of historic incidents');
export const untilOption = () => new Option('--until <time>', 'end of the window (ISO time or duration back from now)').default('now');

/** What every command gets from the CLI shell; commands in src/commands/ register themselves with it. */
export interface CliContext {
  now: Date;
  useColor(flags: CommonOptions): boolean;
  /** `--index` wins, then $DOWNSTACK_INDEX, then `configured` (from .downstack.yml), then the user cache dir. */
  indexDir(flags: CommonOptions, configured?: string): string;
  /** The catalog directories: the built-in one (or $DOWNSTACK_PROVIDERS_DIR) plus `extra`. */
  catalogDirs(extra: string[]): string[];
  /** Writes a command's result to standard output, or atomically to `output` when given. */
  emit(text: string, output?: string): Promise<void>;
  setExitCode(code: number): void;
  readStdin(): Promise<string>;
  /** Writes `file:line: message` lines (sanitized) to stderr. */
  reportProblems(problems: InputProblem[]): void;
  /** Progress and summaries; `isTTY` decides between a redrawn bar and plain lines. */
  stderr: { write(text: string): void; isTTY: boolean; columns?: number };
}

export type RegisterCommand = (program: Command, context: CliContext) => void;

/** Commands that live in their own modules; each adds one entry here. */
const COMMANDS: RegisterCommand[] = [registerExplainCommand, registerProvidersCommand, registerSync, importCommand(), registerFeed];

export async function main(argv: string[]): Promise<number> {
  const now = new Date();
  const useColor = (flags: CommonOptions) => flags.color !== false && !process.env.NO_COLOR && process.stdout.isTTY === true;
  const indexDir = (flags: CommonOptions, configured?: string) => resolveIndexDir(flags.index, process.env.DOWNSTACK_INDEX || configured);
  // A replacement for the built-in catalog, for tests and for people who keep their own checkout of it.
  const catalogDirs = (extra: string[]) => [process.env.DOWNSTACK_PROVIDERS_DIR || PROVIDERS_DIR, ...extra];
  const emit = async (text: string, output?: string) => {
    if (output) await writeFileAtomic(output, text);
    else process.stdout.write(text);
  };
  let exitCode: number = EXIT.ok;
  const context: CliContext = {
    now,
    useColor,
    indexDir,
    catalogDirs,
    emit,
    setExitCode: (code) => {
      exitCode = code;
    },
    readStdin,
    reportProblems: (problems) => {
      for (const problem of problems) process.stderr.write(`${located(problem)}\n`);
    },
    stderr: { write: (text) => process.stderr.write(text), isTTY: process.stderr.isTTY === true, columns: process.stderr.columns },
  };

  const program = new Command()
    .name('downstack')
    .description('Which provider outages hit the things we depend on, and which window of failed work do we replay?')
    .version(VERSION)
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });

  program
    .command('check')
    .description('map package.json, lockfiles, Terraform and domain lists to providers, and list the incidents that touched them')
    .argument('[paths...]', 'files or directories to scan; "-" reads a pasted stack from stdin', ['.'])
    .addOption(sinceOption('90d'))
    .addOption(untilOption())
    .addOption(new Option('--format <format>', 'output format').choices(CHECK_FORMATS).default('table'))
    .addOption(new Option('--output <file>', 'write the report to this file (atomically) instead of standard output'))
    .addOption(new Option('--config <file>', 'read defaults, ignore rules and extra providers from this file (default: .downstack.yml in the scanned directory or the working directory)'))
    .addOption(new Option('--fail-on <when>', 'exit 1 when a finding is: active (open incident) or any (any incident in the window)').choices(['none', 'active', 'any']).default('none'))
    .addOption(new Option('--omit <type...>', 'leave dependencies of this type out, like npm').choices(['dev']))
    .addOption(new Option('--include-maintenance', 'count scheduled maintenance as findings'))
    .addOption(new Option('--sync', "sync the stack's providers first, with a short deadline (the default with --fail-on active); falls back to the local index when offline"))
    .addOption(new Option('--no-sync', 'never sync first, not even for --fail-on active'))
    .addOption(new Option('--strict', 'exit 2 when the sync before the check fails, instead of deciding from the local index'))
    .addOption(indexOption())
    .addOption(snapshotOption())
    .option('--no-color', 'plain output')
    .action(async (paths: string[], cliFlags: CheckFlags, command: Command) => {
      const configFile = await findConfig(paths, cliFlags.config);
      const config = configFile ? await loadConfig(configFile) : undefined;
      // A flag given on the command line wins over the config file, which wins over the built-in default.
      const fromConfig = <K extends 'since' | 'failOn' | 'format' | 'omit'>(key: K) => (command.getOptionValueSource(key) === 'cli' ? cliFlags[key] : (config?.[key] ?? cliFlags[key]));
      const flags: CheckFlags = { ...cliFlags, since: fromConfig('since') as string, failOn: fromConfig('failOn') as CheckFlags['failOn'], format: fromConfig('format') as CheckFormat, omit: fromConfig('omit') };
      const since = parseTimeArg(flags.since, now, '--since');
      const until = parseTimeArg(flags.until, now, '--until');
      if (since > until) throw new UsageError(`--since (${since.toISOString()}) is after --until (${until.toISOString()})`);
      // Sync and check both scan the paths; standard input can only be read once.
      const stdin = once(readStdin);
      const catalog = loadCatalog(catalogDirs(config?.providers ?? []));
      const index = indexDir(flags, config?.index);
      // A pre-deploy gate decides on open incidents, so it asks the status pages first unless told not to.
      const wantSync = flags.sync ?? flags.failOn === 'active';
      let syncFailed = false;
      if (wantSync && process.env.DOWNSTACK_OFFLINE === '1') {
        syncFailed = true;
        if (flags.sync || flags.strict) process.stderr.write('warning: DOWNSTACK_OFFLINE=1, so nothing was synced; using the local index\n');
      } else if (wantSync) {
        const warn = (line: string) => {
          syncFailed = true;
          process.stderr.write(`${line}\n`);
        };
        await syncBeforeCheck({ paths, indexDir: index, catalog, readStdin: stdin, warn });
      }
      if (flags.strict && syncFailed) {
        process.stderr.write('downstack: --strict: the live status of this stack could not be fetched, so the check does not decide from the local index\n');
        exitCode = EXIT.usage;
        return;
      }
      const report = await runCheck({
        paths,
        indexDir: index,
        since,
        until,
        now,
        catalog,
        omit: flags.omit as Array<'dev'> | undefined,
        includeMaintenance: flags.includeMaintenance,
        ...(flags.snapshot ? {} : { snapshotDir: null }),
        readStdin: stdin,
      });
      const problems = [...report.errors, ...report.inputs.flatMap((input) => input.errors)];
      for (const problem of problems) process.stderr.write(`${located(problem)}\n`);
      for (const message of report.index.problems) process.stderr.write(`warning: ${cleanLine(message, 500)}\n`);

      const readable = report.inputs.filter((input) => input.dependencies.length > 0 || input.errors.length === 0);
      if (readable.length === 0) {
        if (problems.length > 0) {
          process.stderr.write('downstack: nothing could be read (see the errors above)\n');
          exitCode = EXIT.usage;
        } else {
          process.stderr.write(`downstack: no supported input found in ${paths.join(', ')} (package.json, lockfiles, Terraform, domain lists)\n`);
          exitCode = EXIT.noInput;
        }
        return;
      }
      const ignores = applyIgnores(report.findings, config?.ignore ?? [], now);
      for (const expired of ignores.expired) process.stderr.write(`warning: ${cleanLine(describeExpired(expired), 500)}\n`);
      for (const { finding, rule } of ignores.ignored) process.stderr.write(`ignored: ${rule.file}:${rule.line}: ${finding.provider} ${cleanLine(finding.incident.id, 100)} until ${rule.expires} (${cleanLine(rule.reason, 200)})\n`);
      const shown = { ...report, findings: ignores.findings, replay: ignores.replay };
      await emit(renderCheck(shown, flags.format, { now, color: useColor(flags) && !flags.output, notes: ignores }), flags.output);
      if (failsGate(shown.findings, flags.failOn)) exitCode = EXIT.failOn;
    });

  program
    .command('incidents')
    .description('list incidents in the index (embedded snapshot plus whatever sync and import added)')
    .addOption(new Option('--provider <id...>', 'only these providers (default: every provider with incidents)'))
    .addOption(sinceOption())
    .addOption(untilOption())
    .addOption(new Option('--format <format>', 'output format').choices(['table', 'json']).default('table'))
    .addOption(indexOption())
    .addOption(snapshotOption())
    .action(async (flags: CommonOptions & { provider?: string[]; since?: string; until: string; format: string; snapshot: boolean }) => {
      const catalog = loadCatalog(catalogDirs([]));
      const ids = flags.provider ?? [...catalog.providers.keys()];
      for (const id of ids) if (!catalog.providers.has(id)) throw new UsageError(`unknown provider "${id}" (see \`downstack providers\`)`);
      const since = flags.since ? parseTimeArg(flags.since, now, '--since').toISOString() : '';
      const until = parseTimeArg(flags.until, now, '--until').toISOString();
      const index = flags.snapshot ? new IncidentIndex(indexDir(flags)) : new IncidentIndex(indexDir(flags), null);
      const incidents: Incident[] = [];
      for (const id of ids) {
        const entry = await index.read(id);
        for (const message of entry.problems) process.stderr.write(`warning: ${cleanLine(message, 500)}\n`);
        incidents.push(...entry.incidents.filter((incident) => incident.startedAt <= until && (incident.resolvedAt ?? until) >= since));
      }
      incidents.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
      if (flags.format === 'json') {
        process.stdout.write(`${JSON.stringify(incidents, null, 2)}\n`);
        return;
      }
      if (incidents.length === 0) process.stdout.write('No incidents in the index for that selection.\n');
      for (const incident of incidents) {
        const name = catalog.providers.get(incident.provider)?.name ?? incident.provider;
        process.stdout.write(`${formatRange(incident.startedAt, incident.resolvedAt).padEnd(38)} ${name}: ${cleanLine(incident.title, 100)}\n`);
      }
    });

  for (const register of COMMANDS) register(program, context);

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    return reportError(error);
  }
  return exitCode;
}

function failsGate(findings: Finding[], failOn: CheckFlags['failOn']): boolean {
  if (failOn === 'any') return findings.length > 0;
  if (failOn === 'active') return findings.some((finding) => finding.active);
  return false;
}

function located(problem: InputProblem): string {
  return `${problem.file}${problem.line ? `:${problem.line}` : ''}: ${cleanLine(problem.message, 500)}`;
}

function reportError(error: unknown): number {
  const code = (error as { code?: string }).code;
  if (code === 'commander.helpDisplayed' || code === 'commander.version' || code === 'commander.help') return EXIT.ok;
  if (typeof code === 'string' && code.startsWith('commander.')) return EXIT.usage;
  if (error instanceof ParseError) process.stderr.write(`${error.located}\n`);
  else if (error instanceof CatalogError || error instanceof UsageError || error instanceof DownstackError) process.stderr.write(`downstack: ${error.message}\n`);
  else {
    process.stderr.write(`downstack: unexpected error: ${(error as Error).stack ?? String(error)}\n`);
    return 70;
  }
  return EXIT.usage;
}

function once<T>(read: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | undefined;
  return () => (result ??= read());
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError('"-" reads a stack from standard input: pipe or paste one, e.g. `cat package.json | downstack check -`');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
