// What the CLI shell hands every command: options declared once and the context. Commands in this folder register
// themselves with it and never touch `process` directly; exit codes are named in errors.ts.
import { Option, type Command } from 'commander';
import { type DnsSettings, parseResolverAddress } from '../dns/settings.js';
import { type ExitCode, UsageError } from '../errors.js';
import type { InputProblem } from '../model.js';

export interface CommonOptions {
  index?: string;
  color?: boolean;
}

/** Options shared by several commands, declared once. */
export const indexOption = () =>
  new Option('--index <dir>', 'incident index directory (default: $DOWNSTACK_INDEX or the user cache dir)');
export const sinceOption = (fallback?: string) =>
  new Option(
    '--since <time>',
    'start of the window: ISO time (2021-08-10T19:00Z) or duration back from now (30d)',
  ).default(fallback);
export const snapshotOption = () =>
  new Option('--no-snapshot', 'answer from the local index alone, without the embedded snapshot of historic incidents');
export const untilOption = () =>
  new Option('--until <time>', 'end of the window (ISO time or duration back from now)').default('now');

/** DNS detection of a team's own domains (on by default; never with DOWNSTACK_OFFLINE=1). */
export const noResolveOption = () =>
  new Option('--no-resolve', "match domains by name only: no DNS lookups of the team's own host names");
export const resolverOption = () =>
  new Option(
    '--resolver <host[:port]>',
    'DNS server to ask, an IP address with an optional port (default: $DOWNSTACK_RESOLVER or the system resolver)',
  );

export interface ResolveFlags {
  resolve?: boolean;
  resolver?: string;
}

/** `--resolver` wins over DOWNSTACK_RESOLVER; `--no-resolve` and DOWNSTACK_OFFLINE=1 turn lookups off. */
export function dnsSettings(flags: ResolveFlags, context: CliContext): DnsSettings {
  const server = flags.resolver ?? context.resolver;
  const from = flags.resolver !== undefined ? '--resolver' : 'DOWNSTACK_RESOLVER';
  if (server !== undefined && !parseResolverAddress(server))
    throw new UsageError(
      `${from} "${server}" is not a DNS server address: give an IP address with an optional port (1.1.1.1, 127.0.0.1:5353, [::1]:53)`,
    );
  if (flags.resolve === false) return { resolve: false, skipped: '--no-resolve' };
  if (context.offline) return { resolve: false, skipped: 'DOWNSTACK_OFFLINE=1' };
  return { resolve: true, ...(server ? { server } : {}) };
}

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
  setExitCode(code: ExitCode): void;
  readStdin(): Promise<string>;
  /** Writes `file:line: message` lines (sanitized) to stderr. */
  reportProblems(problems: InputProblem[]): void;
  /** Progress and summaries; `isTTY` decides between a redrawn bar and plain lines. */
  stderr: { write(text: string): void; isTTY: boolean; columns?: number };
  /** DOWNSTACK_OFFLINE=1: never touch the network (air-gapped runners, tests). */
  offline: boolean;
  /** DOWNSTACK_RESOLVER: the DNS server to ask, when `--resolver` is not given. */
  resolver?: string;
}

export type RegisterCommand = (program: Command, context: CliContext) => void;
