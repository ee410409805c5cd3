// Every command, in the order `--help` lists them. What commander needs to parse a command line and print help —
// name, description, arguments, and the options from src/settings/options.ts — is data here; the module that runs a
// command (and everything it imports: the catalog, parsers, yaml, zod, the network client…) is loaded only when that
// command runs, so `--version`, `--help` and each command pay only for what they use.
import type { Command } from 'commander';
import { addOptions, type CommandName } from '../settings/options.js';
import type { CliContext } from './context.js';
import type { FeedFlags } from './feed.js';

export interface CommandArgument {
  /** Commander syntax: `<target>`, `[paths...]`. */
  syntax: string;
  description: string;
  default?: unknown;
}

export interface CommandSpec {
  /** The command's word; its options are those `options.ts` lists under `option` (default: `name`). */
  name: string;
  option?: CommandName;
  description: string;
  arguments?: readonly CommandArgument[];
  /** Loads the command's module and runs it with commander's positional arguments and option values. */
  run(command: Command, context: CliContext, args: readonly unknown[]): Promise<void>;
  subcommands?: readonly CommandSpec[];
}

const scanArgument = (description: string): CommandArgument => ({
  syntax: '[paths...]',
  description,
  default: ['.'],
});

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'check',
    description:
      'map package.json, lockfiles, Terraform and domain lists to providers, and list the incidents that touched them',
    arguments: [scanArgument('files or directories to scan; "-" reads a pasted stack from stdin')],
    run: async (command, context, [paths]) =>
      (await import('./check.js')).runCheckCommand(command, context, paths as string[]),
  },
  {
    name: 'incidents',
    description: 'list incidents in the index (embedded snapshot plus whatever sync and import added)',
    run: async (command, context) => (await import('./incidents.js')).runIncidentsCommand(command, context),
  },
  {
    name: 'explain',
    description:
      'say why a provider or package is in the stack: every dependency chain to it, root first (exit 1 when it is not there)',
    arguments: [
      { syntax: '<target>', description: 'provider id or name (sentry, Stripe) or npm package name (@sentry/node)' },
      scanArgument('files or directories to scan; "-" reads stdin'),
    ],
    run: async (command, context, [target, paths]) =>
      (await import('./explain.js')).runExplainCommand(command, context, target as string, paths as string[]),
  },
  {
    name: 'jobs',
    description:
      'list the scheduled jobs found (CI crons, platform crons, Kubernetes CronJobs, cloud schedulers) with their next runs',
    arguments: [scanArgument('files or directories to scan; "-" reads one file from stdin')],
    run: async (command, context, [paths]) =>
      (await import('./jobs.js')).runJobsCommand(command, context, paths as string[]),
  },
  {
    name: 'providers',
    description: 'list or search the provider catalog; `providers show ID` prints one provider',
    arguments: [
      { syntax: '[query]', description: 'text to search in ids, names, npm names, Terraform sources and domains' },
    ],
    run: async (command, context, [query]) =>
      (await import('./providers.js')).runProvidersCommand(command, context, query as string | undefined),
    subcommands: [
      {
        name: 'show',
        option: 'providers show',
        description: 'print one provider: status page, feed, matchers, components, upstreams',
        arguments: [{ syntax: '<id>', description: 'provider id (file name in providers/)' }],
        run: async (command, context, [id]) =>
          (await import('./providers.js')).runProvidersShowCommand(command, context, id as string),
      },
    ],
  },
  {
    name: 'sync',
    description:
      "refresh the incident index from the providers' public status pages (the stack's providers by default)",
    arguments: [
      {
        syntax: '[paths...]',
        description: 'stack whose providers to sync: files or directories, "-" for stdin',
        default: ['.'],
      },
    ],
    run: async (command, context, [paths]) =>
      (await import('./sync.js')).runSyncCommand(command, context, paths as string[]),
  },
  {
    name: 'import',
    description:
      'add incident documents to the index: Statuspage JSON, Atom/RSS history feeds, incidentlib records, incident pages and postmortems (text, Markdown, HTML)',
    arguments: [{ syntax: '<files...>', description: 'documents to import; "-" reads one from stdin' }],
    run: async (command, context, [files]) =>
      (await import('./import.js')).runImportCommand(command, context, files as string[]),
  },
  {
    name: 'feed',
    description:
      'an Atom feed of the incidents that touch one provider (--provider) or the whole stack (paths), for feed readers and chat bots',
    arguments: [
      { syntax: '[paths...]', description: 'files or directories of the stack (default: the current directory)' },
    ],
    run: async (command, context, [paths, flags]) =>
      (await import('./feed.js')).runFeedCommand(command, context, paths as string[], flags as FeedFlags),
  },
];

/** Adds `spec` (and its subcommands) to `parent`: arguments and options now, the command's module when it runs. */
export function addCommand(parent: Command, spec: CommandSpec, context: CliContext): Command {
  const command = parent.command(spec.name).description(spec.description);
  for (const argument of spec.arguments ?? [])
    if (argument.default === undefined) command.argument(argument.syntax, argument.description);
    else command.argument(argument.syntax, argument.description, argument.default);
  addOptions(command, spec.option ?? (spec.name as CommandName)).action((...args: unknown[]) =>
    spec.run(command, context, args),
  );
  for (const sub of spec.subcommands ?? []) addCommand(command, sub, context);
  return command;
}
