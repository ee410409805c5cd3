// The only module that touches process, console and exit codes; everything below returns values or throws.
import { Command, Option } from 'commander';
import { runCheck } from './check.js';
import { loadCatalog } from './catalog/loader.js';
import { registerExplainCommand } from './commands/explain.js';
import { CatalogError, DownstackError, ParseError, UsageError } from './errors.js';
import { IncidentIndex, resolveIndexDir } from './incidents/store.js';
import type { Finding, Incident, InputProblem } from './model.js';
import { checkToJson } from './report/json.js';
import { renderTable } from './report/table.js';
import { cleanLine } from './sanitize.js';
import { formatRange, parseTimeArg } from './time.js';

export const EXIT = { ok: 0, failOn: 1, usage: 2, noInput: 3 } as const;

export interface CommonOptions {
  index?: string;
  color?: boolean;
}

interface CheckFlags extends CommonOptions {
  since: string;
  until: string;
  format: 'table' | 'json';
  failOn: 'none' | 'active' | 'any';
  omit?: string[];
  includeMaintenance?: boolean;
}

/** Options shared by several commands, declared once. */
export const indexOption = () => new Option('--index <dir>', 'incident index directory (default: $DOWNSTACK_INDEX or the user cache dir)');
export const sinceOption = (fallback?: string) => new Option('--since <time>', 'start of the window: ISO time (2021-08-10T19:00Z) or duration back from now (30d)').default(fallback);
export const untilOption = () => new Option('--until <time>', 'end of the window (ISO time or duration back from now)').default('now');

/** What every command gets from the CLI shell; commands in src/commands/ register themselves with it. */
export interface CliContext {
  now: Date;
  useColor(flags: CommonOptions): boolean;
  indexDir(flags: CommonOptions): string;
  setExitCode(code: number): void;
  readStdin(): Promise<string>;
  /** Writes to stdout. */
  write(text: string): void;
  /** Writes `file:line: message` lines (sanitized) to stderr. */
  reportProblems(problems: InputProblem[]): void;
}

export type RegisterCommand = (program: Command, context: CliContext) => void;

/** Commands that live in their own modules; each adds one entry here. */
const COMMANDS: RegisterCommand[] = [registerExplainCommand];

export async function main(argv: string[]): Promise<number> {
  const now = new Date();
  const useColor = (flags: CommonOptions) => flags.color !== false && !process.env.NO_COLOR && process.stdout.isTTY === true;
  const indexDir = (flags: CommonOptions) => resolveIndexDir(flags.index, process.env.DOWNSTACK_INDEX);
  let exitCode: number = EXIT.ok;
  const context: CliContext = {
    now,
    useColor,
    indexDir,
    setExitCode: (code) => {
      exitCode = code;
    },
    readStdin,
    write: (text) => process.stdout.write(text),
    reportProblems: (problems) => {
      for (const problem of problems) process.stderr.write(`${located(problem)}\n`);
    },
  };

  const program = new Command()
    .name('downstack')
    .description('Which provider outages hit the things we depend on, and which window of failed work do we replay?')
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });

  program
    .command('check')
    .description('map package.json, lockfiles, Terraform and domain lists to providers, and list the incidents that touched them')
    .argument('[paths...]', 'files or directories to scan; "-" reads a pasted stack from stdin', ['.'])
    .addOption(sinceOption('90d'))
    .addOption(untilOption())
    .addOption(new Option('--format <format>', 'output format').choices(['table', 'json']).default('table'))
    .addOption(new Option('--fail-on <when>', 'exit 1 when a finding is: active (open incident) or any (any incident in the window)').choices(['none', 'active', 'any']).default('none'))
    .addOption(new Option('--omit <type...>', 'leave dependencies of this type out, like npm').choices(['dev']))
    .addOption(new Option('--include-maintenance', 'count scheduled maintenance as findings'))
    .addOption(indexOption())
    .option('--no-color', 'plain output')
    .action(async (paths: string[], flags: CheckFlags) => {
      const since = parseTimeArg(flags.since, now, '--since');
      const until = parseTimeArg(flags.until, now, '--until');
      if (since > until) throw new UsageError(`--since (${since.toISOString()}) is after --until (${until.toISOString()})`);
      const report = await runCheck({
        paths,
        indexDir: indexDir(flags),
        since,
        until,
        now,
        omit: flags.omit as Array<'dev'> | undefined,
        includeMaintenance: flags.includeMaintenance,
        readStdin,
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
      process.stdout.write(flags.format === 'json' ? `${JSON.stringify(checkToJson(report), null, 2)}\n` : renderTable(report, { color: useColor(flags), now }));
      if (failsGate(report.findings, flags.failOn)) exitCode = EXIT.failOn;
    });

  program
    .command('incidents')
    .description('list incidents in the index (embedded snapshot plus whatever sync and import added)')
    .addOption(new Option('--provider <id...>', 'only these providers (default: every provider with incidents)'))
    .addOption(sinceOption())
    .addOption(untilOption())
    .addOption(new Option('--format <format>', 'output format').choices(['table', 'json']).default('table'))
    .addOption(indexOption())
    .action(async (flags: CommonOptions & { provider?: string[]; since?: string; until: string; format: string }) => {
      const catalog = loadCatalog();
      const ids = flags.provider ?? [...catalog.providers.keys()];
      for (const id of ids) if (!catalog.providers.has(id)) throw new UsageError(`unknown provider "${id}" (see \`downstack providers\`)`);
      const since = flags.since ? parseTimeArg(flags.since, now, '--since').toISOString() : '';
      const until = parseTimeArg(flags.until, now, '--until').toISOString();
      const index = new IncidentIndex(indexDir(flags));
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

  const providers = program.command('providers').description('list or search the provider catalog');
  providers
    .argument('[query]', 'text to search in ids, names, npm names and domains')
    .action((query: string | undefined) => {
      const catalog = loadCatalog();
      const needle = query?.toLowerCase();
      for (const provider of catalog.providers.values()) {
        const haystack = [provider.id, provider.name, ...(provider.match.npm ?? []), ...(provider.match.domains ?? [])].join(' ').toLowerCase();
        if (needle && !haystack.includes(needle)) continue;
        process.stdout.write(`${provider.id.padEnd(22)} ${provider.name.padEnd(30)} ${provider.status.url}\n`);
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

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError('"-" reads a stack from standard input: pipe or paste one, e.g. `cat package.json | downstack check -`');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
