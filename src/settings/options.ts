// Every command-line option of every command, declared once as data (after npm-check-updates' cli-options). One
// entry drives the option's parsing and help text on each command that takes it and, when it has a `config`
// schema, the `.downstack.yml` key of the same name. Adding a setting is adding an entry here.
import type { Command } from 'commander';
import type { z } from 'zod';
import { parseResolverAddress } from '../dns/settings.js';
import { UsageError } from '../errors.js';
import { CHECK_FORMATS } from '../report/formats.js';
import { cleanLine } from '../sanitize.js';
import { DEFAULT_HTTP } from '../sync/http-options.js';
import { parseDurationArg } from '../time.js';

export type CommandName =
  | 'check'
  | 'feed'
  | 'sync'
  | 'incidents'
  | 'providers'
  | 'providers show'
  | 'explain'
  | 'jobs'
  | 'import';

/** How one command takes an option: its default, its own choices or wording, and whether the file may set it. */
export interface OptionUse {
  default?: unknown;
  choices?: readonly string[];
  description?: string;
  /** `.downstack.yml` sets this option for this command (below the command line and the environment). */
  fromConfig?: boolean;
}

export interface OptionSpec {
  /** Commander syntax: `--since <time>`, `--provider <id...>`, `--no-snapshot`. */
  flags: string;
  description: string;
  commands: Partial<Record<CommandName, OptionUse>>;
  choices?: readonly string[];
  /** Turns the text of the flag (or of `env`) into its value; throws UsageError naming `source` for a bad one. */
  parse?: (value: string, source: string) => unknown;
  /**
   * The `.downstack.yml` key of the same name and what it accepts (built from zod when a config file is read, so
   * parsing a command line never loads zod). Without it the option is command line only.
   */
  config?: (zod: typeof z) => z.ZodType;
  /** A config value that is a path: resolved against the config file, and it must stay inside the repository. */
  configPath?: boolean;
  /** An environment variable that sets it, above the config file and below the command line. */
  env?: string;
}

const timeHelp = 'ISO time (2021-08-10T19:00Z) or duration back from now (30d)';

export const OPTIONS = {
  since: {
    flags: '--since <time>',
    description: `start of the window: ${timeHelp}`,
    config: (zod) => zod.string().min(1),
    commands: {
      check: { default: '90d', fromConfig: true },
      feed: { default: '90d', fromConfig: true },
      incidents: {},
      sync: {
        description: 'with --backfill: stop paging once the history archive is older than this (ISO date or 5y)',
      },
    },
  },
  until: {
    flags: '--until <time>',
    description: 'end of the window (ISO time or duration back from now)',
    commands: { check: { default: 'now' }, feed: { default: 'now' }, incidents: { default: 'now' } },
  },
  format: {
    flags: '--format <format>',
    description: 'output format',
    config: (zod) => zod.enum(CHECK_FORMATS),
    commands: {
      check: { choices: CHECK_FORMATS, default: 'table', fromConfig: true },
      incidents: { choices: ['table', 'json'], default: 'table' },
      providers: { choices: ['table', 'json'], default: 'table' },
      explain: { choices: ['text', 'json'], default: 'text' },
      jobs: { choices: ['table', 'json'], default: 'table' },
      import: { choices: ['table', 'json'], default: 'table' },
    },
  },
  output: {
    flags: '--output <file>',
    description: 'write to this file (atomically; devices and pipes are written through) instead of standard output',
    commands: { check: {}, feed: {} },
  },
  failOn: {
    flags: '--fail-on <when>',
    description: 'exit 1 when a finding is: active (open incident) or any (any incident in the window)',
    choices: ['none', 'active', 'any'],
    config: (zod) => zod.enum(['none', 'active', 'any']),
    commands: { check: { default: 'none', fromConfig: true } },
  },
  omit: {
    flags: '--omit <type...>',
    description: 'leave dependencies of this type out, like npm',
    choices: ['dev'],
    config: (zod) => zod.array(zod.enum(['dev'])),
    commands: { check: { fromConfig: true }, explain: { fromConfig: true } },
  },
  reach: {
    flags: '--reach <reach>',
    description:
      'which providers count for incidents, replay windows and gates: direct (declared by this repository), transitive (also through libraries), all (also optional, peer and dev)',
    choices: ['direct', 'transitive', 'all'],
    parse: (value: string, source: string) => oneOf(value, source, ['direct', 'transitive', 'all']),
    config: (zod) => zod.enum(['direct', 'transitive', 'all']),
    env: 'DOWNSTACK_REACH',
    commands: { check: { default: 'direct', fromConfig: true }, feed: { default: 'direct', fromConfig: true } },
  },
  limit: {
    flags: '--limit <n>',
    description: 'table: show the N newest incidents and replay windows (open ones always); 0 shows every one',
    parse: (value: string, source: string) => wholeNumber(value, source, 0, 100_000),
    config: (zod) => zod.number().int().min(0),
    commands: { check: { default: 20, fromConfig: true } },
  },
  includeMaintenance: {
    flags: '--include-maintenance',
    description: 'count scheduled maintenance as findings',
    commands: { check: {}, feed: { description: 'include scheduled maintenance' } },
  },
  sync: {
    flags: '--sync',
    description:
      "sync the stack's providers first, with a short deadline (the default with --fail-on active); falls back to the local index when offline",
    commands: { check: {} },
  },
  noSync: {
    flags: '--no-sync',
    description: 'never sync first, not even for --fail-on active',
    commands: { check: {} },
  },
  strict: {
    flags: '--strict',
    description: 'exit 2 when the sync before the check fails, instead of deciding from the local index',
    commands: { check: {} },
  },
  lead: {
    flags: '--lead <duration>',
    description:
      "start replays this long before a status page's first post (30m, 1h; 0 for none); default: the lead measured per platform on the bundled history",
    parse: parseDurationArg,
    commands: { check: {} },
  },
  indexUrl: {
    flags: '--index-url <url>',
    description:
      'read incidents from an index published by `sync --publish` (its directory or manifest.json URL) instead of syncing; falls back to its cached copy, then the local index',
    env: 'DOWNSTACK_INDEX_URL',
    parse: httpUrl,
    commands: { check: {} },
  },
  all: { flags: '--all', description: 'sync every provider in the catalog', commands: { sync: {} } },
  providerList: {
    flags: '--provider <id...>',
    description: 'only these providers',
    commands: {
      sync: { description: 'sync only these providers' },
      incidents: { description: 'only these providers (default: every provider with incidents)' },
    },
  },
  provider: {
    flags: '--provider <id>',
    description: 'one provider',
    commands: {
      feed: { description: "every incident of this provider instead of the stack's findings" },
      import: { description: 'the catalog provider the documents are about (default: inferred from each document)' },
    },
  },
  concurrency: {
    flags: '--concurrency <n>',
    description: 'requests in flight at once (at most 2 per host)',
    parse: positiveInt,
    commands: { sync: { default: DEFAULT_HTTP.concurrency } },
  },
  timeout: {
    flags: '--timeout <seconds>',
    description: 'per-request timeout',
    parse: positiveInt,
    commands: { sync: { default: DEFAULT_HTTP.timeoutMs / 1000 } },
  },
  progress: {
    flags: '--no-progress',
    description: 'one line per provider even in a terminal',
    commands: { sync: {} },
  },
  backfill: {
    flags: '--backfill',
    description:
      "walk each Statuspage page's whole history archive and fetch what the index lacks (other platforms: a sync of their deepest endpoint); resumable, at --rate",
    commands: { sync: {} },
  },
  rate: {
    flags: '--rate <n>',
    description: 'with --backfill: requests per second to one host (at most 2 in flight)',
    parse: requestsPerSecond,
    commands: { sync: { default: 1 } },
  },
  publish: {
    flags: '--publish <dir>',
    description:
      'then write the whole index to DIR as a static index for a fleet (per-provider files and a manifest with sha256 hashes and sync times), for `check --index-url`',
    commands: { sync: {} },
  },
  allowPrivateEndpoints: {
    flags: '--allow-private-endpoints',
    description:
      "let providers defined in the repository's .downstack.yml fetch status pages on private or loopback addresses",
    commands: { check: {}, sync: {} },
  },
  next: {
    flags: '--next <count>',
    description: 'how many upcoming runs to list per job (0 to 100)',
    parse: (value: string, source: string) => wholeNumber(value, source, 0, 100),
    commands: { jobs: { default: 3 } },
  },
  dryRun: { flags: '--dry-run', description: 'read and check everything, write nothing', commands: { import: {} } },
  config: {
    flags: '--config <file>',
    description:
      'read settings from this file (default: .downstack.yml in the scanned directory, or in the working directory)',
    commands: {
      check: {},
      feed: {},
      sync: {},
      incidents: {},
      providers: {},
      'providers show': {},
      explain: {},
      jobs: {},
      import: {},
    },
  },
  index: {
    flags: '--index <dir>',
    description: 'incident index directory (default: the user cache dir)',
    env: 'DOWNSTACK_INDEX',
    config: (zod) => zod.string().min(1),
    configPath: true,
    commands: {
      check: { fromConfig: true },
      feed: { fromConfig: true },
      sync: { fromConfig: true },
      incidents: { fromConfig: true },
      import: { fromConfig: true },
    },
  },
  snapshot: {
    flags: '--no-snapshot',
    description: 'answer from the local index alone, without the embedded snapshot of historic incidents',
    commands: {
      check: {},
      incidents: {},
      import: { description: 'add the documents as they are, without merging them into the embedded snapshot' },
    },
  },
  color: { flags: '--no-color', description: 'plain output', commands: { check: {} } },
  resolve: {
    flags: '--no-resolve',
    description: "match domains by name only: no DNS lookups of the team's own host names",
    commands: { check: {}, explain: {}, sync: {} },
  },
  resolver: {
    flags: '--resolver <host[:port]>',
    description: 'DNS server to ask, an IP address with an optional port (default: the system resolver)',
    env: 'DOWNSTACK_RESOLVER',
    parse: resolverAddress,
    commands: { check: {}, explain: {}, sync: {} },
  },
} satisfies Record<string, OptionSpec>;

export type OptionKey = keyof typeof OPTIONS;

/** The options `command` takes, in the order its help lists them. */
export function optionsOf(command: CommandName): Array<[OptionKey, OptionSpec, OptionUse]> {
  const found: Array<[OptionKey, OptionSpec, OptionUse]> = [];
  for (const [key, spec] of Object.entries(OPTIONS) as Array<[OptionKey, OptionSpec]>) {
    const use = spec.commands[command];
    if (use) found.push([key, spec, use]);
  }
  return found;
}

/** Adds every option `name` takes to a commander command, with its help text, choices, default and parser. */
export function addOptions(command: Command, name: CommandName): Command {
  for (const [key, spec, use] of optionsOf(name)) {
    const sources = [
      spec.env ? `$${spec.env}` : undefined,
      use.fromConfig ? `.downstack.yml ${key}:` : undefined,
    ].filter(Boolean);
    const description = `${use.description ?? spec.description}${sources.length > 0 ? ` (also: ${sources.join(', ')})` : ''}`;
    const option = command.createOption(spec.flags, description);
    const choices = use.choices ?? spec.choices;
    if (choices) option.choices(choices);
    const parse = spec.parse;
    if (parse) option.argParser((value: string) => parse(value, spec.flags.split(' ')[0] ?? key));
    if (use.default !== undefined) option.default(use.default);
    command.addOption(option);
  }
  return command;
}

/** The keys `.downstack.yml` may set (each the option's own name), with their schemas: every option that declares one. */
type ConfigurableSpec = OptionSpec & { config: NonNullable<OptionSpec['config']> };

export function configurableOptions(): Array<[OptionKey, ConfigurableSpec]> {
  return (Object.entries(OPTIONS) as Array<[OptionKey, OptionSpec]>).filter(
    (entry): entry is [OptionKey, ConfigurableSpec] => entry[1].config !== undefined,
  );
}

function requestsPerSecond(value: string, source: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 50)
    throw new UsageError(
      `${source} must be a number of requests per second above 0 and at most 50, got "${cleanLine(value, 40)}"`,
    );
  return n;
}

function httpUrl(value: string, source: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(value);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
    throw new UsageError(
      `${source} "${cleanLine(value, 200)}" is not an http(s) URL: give the address a \`sync --publish\` directory is served at`,
    );
  return parsed.href;
}

function positiveInt(value: string, source: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`${source} must be a positive whole number, got "${cleanLine(value, 40)}"`);
  return n;
}

function oneOf(value: string, source: string, choices: readonly string[]): string {
  if (!choices.includes(value))
    throw new UsageError(`${source} "${cleanLine(value, 40)}" must be one of: ${choices.join(', ')}`);
  return value;
}

function wholeNumber(value: string, source: string, min: number, max: number): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`${source} "${cleanLine(value, 40)}" must be a whole number from ${min} to ${max}`);
  return n;
}

function resolverAddress(value: string, source: string): string {
  if (!parseResolverAddress(value))
    throw new UsageError(
      `${source} "${cleanLine(value, 60)}" is not a DNS server address: give an IP address with an optional port (1.1.1.1, 127.0.0.1:5353, [::1]:53)`,
    );
  return value;
}
