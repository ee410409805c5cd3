// What the CLI shell hands every command. Commands in this folder register themselves with it, declare their
// options in src/settings/options.ts, get their settings from `context.settings`, and never touch `process`;
// exit codes are named in errors.ts.
import type { Command } from 'commander';
import type { DnsSettings } from '../dns/settings.js';
import type { ExitCode } from '../errors.js';
import type { InputProblem } from '../model.js';
import type { CommandName } from '../settings/options.js';
import type { SafeText } from '../sanitize.js';
import type { Settings } from '../settings/resolve.js';

export interface CommonOptions {
  color?: boolean;
}

export interface ResolveFlags {
  resolve?: boolean;
  /** Already checked to be an address (src/settings/options.ts); from --resolver or DOWNSTACK_RESOLVER. */
  resolver?: string;
}

/** DNS detection of a team's own domains: on by default; `--no-resolve` and DOWNSTACK_OFFLINE=1 turn it off. */
export function dnsSettings(flags: ResolveFlags, context: CliContext): DnsSettings {
  if (flags.resolve === false) return { resolve: false, skipped: '--no-resolve' };
  if (context.offline) return { resolve: false, skipped: 'DOWNSTACK_OFFLINE=1' };
  return { resolve: true, ...(flags.resolver ? { server: flags.resolver } : {}) };
}

/** What every command gets from the CLI shell; commands in src/commands/ register themselves with it. */
export interface CliContext {
  now: Date;
  useColor(flags: CommonOptions): boolean;
  /**
   * The run's settings: the command's flags with the environment and `.downstack.yml` applied, the index directory
   * and the catalog. `paths` are what the command scans ([] when it scans nothing), where a config is looked for.
   */
  settings<F>(name: CommandName, command: Command, paths: string[]): Promise<Settings<F>>;
  /**
   * Writes a command's result to standard output, or to `output` when given (src/output-file.ts). Like every writer
   * here it passes the output boundary (src/sanitize.ts): SafeText as is, a plain string cleaned as a whole.
   */
  emit(text: SafeText | string, output?: string): Promise<void>;
  setExitCode(code: ExitCode): void;
  readStdin(): Promise<string>;
  /** Writes `file:line: message` lines (sanitized) to stderr. */
  reportProblems(problems: InputProblem[]): void;
  /** Progress and summaries; `isTTY` decides between a redrawn bar and plain lines. */
  stderr: { write(text: SafeText | string): void; isTTY: boolean; columns?: number };
  /** DOWNSTACK_OFFLINE=1: never touch the network (air-gapped runners, tests). */
  offline: boolean;
}
