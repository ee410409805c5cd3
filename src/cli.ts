// The only module that touches process, console and exit codes; everything below returns values or throws.
import { createRequire } from 'node:module';
import type { Command } from 'commander';
import type { CliContext, CommonOptions } from './commands/context.js';
import { addCommand, COMMANDS } from './commands/index.js';
import { DownstackError, EXIT, type ExitCode, ParseError, UsageError } from './errors.js';
import type { InputProblem } from './model.js';
import { cleanLine, forOutput, type SafeText, text } from './sanitize.js';
import type { CommandName } from './settings/options.js';
import type { ParsedFlags } from './settings/resolve.js';
import { VERSION } from './version.js';

export type { CliContext, CommonOptions } from './commands/context.js';
export type { CommandSpec } from './commands/index.js';
export { EXIT } from './errors.js';

export async function main(argv: string[]): Promise<number> {
  const now = new Date();
  // --no-color and NO_COLOR win; FORCE_COLOR asks for colour where stdout is not a terminal (CI logs).
  const forced = process.env.FORCE_COLOR !== undefined && process.env.FORCE_COLOR !== '0';
  const useColor = (flags: CommonOptions) =>
    flags.color !== false && !process.env.NO_COLOR && (forced || process.stdout.isTTY === true);
  // The output boundary: every byte for stdout, stderr or --output passes through forOutput (src/sanitize.ts).
  const toStdout = (value: SafeText | string) => process.stdout.write(forOutput(value));
  const toStderr = (value: SafeText | string) => process.stderr.write(forOutput(value));
  const emit = async (value: SafeText | string, output?: string) => {
    // Loaded only with --output: its atomic writes bring fs/promises, which --help and a plain check never need.
    if (output)
      await (await import('./output-file.js')).writeOutput(output, forOutput(value), (chunk) =>
        process.stdout.write(chunk),
      );
    else toStdout(value);
  };
  let exitCode: ExitCode = EXIT.ok;
  const context: CliContext = {
    now,
    useColor,
    // Settings bring the config file's reader and the catalog: loaded by the commands that ask for them.
    settings: async (name, command, paths) =>
      (await import('./settings/resolve.js')).resolveSettings(paths, parsedFlags(name, command), process.env),
    emit,
    setExitCode: (code) => {
      exitCode = code;
    },
    readStdin,
    reportProblems: (problems) => {
      for (const problem of problems) toStderr(text`${located(problem)}\n`);
    },
    stderr: {
      write: (value) => toStderr(value),
      isTTY: process.stderr.isTTY === true,
      columns: process.stderr.columns,
    },
    offline: process.env.DOWNSTACK_OFFLINE === '1',
  };

  // commander is CommonJS: required, not imported, so node does not first scan its source for named exports.
  const commander = createRequire(import.meta.url)('commander') as typeof import('commander');
  const program = new commander.Command()
    .name('downstack')
    .description('Which provider outages hit the things we depend on, and which window of failed work do we replay?')
    .version(VERSION)
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeOut: (help) => toStdout(help), writeErr: (message) => toStderr(message) });

  // A run names its command first: only that one is built, with its options (the check's are most of them). Anything
  // else (help, a global flag, a mistyped command commander suggests a fix for) gets them all.
  const named = COMMANDS.find((spec) => spec.name === argv[0]);
  for (const spec of named ? [named] : COMMANDS) addCommand(program, spec, context);

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    const { lines, code } = describeFailure(error, process.env.DOWNSTACK_DEBUG === '1');
    for (const line of lines) toStderr(`${line}\n`);
    return code;
  }
  return exitCode;
}

/** What commander parsed for one command: values (defaults included) and which of them were typed. */
function parsedFlags(name: CommandName, command: Command): ParsedFlags {
  const given = new Set<string>();
  for (const option of command.options) {
    const key = option.attributeName();
    if (command.getOptionValueSource(key) === 'cli') given.add(key);
  }
  return { command: name, values: command.opts(), given };
}

function located(problem: InputProblem): SafeText {
  return text`${problem.file}${problem.line ? text`:${problem.line}` : ''}: ${cleanLine(problem.message, 500)}`;
}

/**
 * The one catch of the CLI: a named error is its message and its exit code (commander has printed its own);
 * anything else is a bug in downstack, told in one line with a hint, its stack only with DOWNSTACK_DEBUG=1.
 */
export function describeFailure(error: unknown, debug: boolean): { lines: string[]; code: ExitCode } {
  const commander = (error as { code?: unknown } | undefined)?.code;
  if (commander === 'commander.helpDisplayed' || commander === 'commander.version' || commander === 'commander.help')
    return { lines: [], code: EXIT.ok };
  if (typeof commander === 'string' && commander.startsWith('commander.')) return { lines: [], code: EXIT.usage };
  if (error instanceof ParseError) return { lines: [located(error).text], code: error.exitCode };
  if (error instanceof DownstackError) return { lines: [`downstack: ${error.message}`], code: error.exitCode };
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const lines = [`downstack: internal error (a bug in downstack ${VERSION}): ${cleanLine(message, 300)}`];
  if (debug && error instanceof Error && error.stack) lines.push(error.stack);
  else lines.push('  run again with DOWNSTACK_DEBUG=1 for the stack trace, and report it with the command you ran');
  return { lines, code: EXIT.internal };
}

/** Standard input, under the same size limit as an input file. */
async function readStdin(): Promise<string> {
  if (process.stdin.isTTY)
    throw new UsageError(
      '"-" reads a stack from standard input: pipe or paste one, e.g. `cat package.json | downstack check -`',
    );
  const { formatBytes, MAX_INPUT_BYTES } = await import('./file-access.js');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length;
    if (size > MAX_INPUT_BYTES) {
      process.stdin.destroy();
      throw new UsageError(
        `standard input is larger than ${formatBytes(MAX_INPUT_BYTES)}, the limit for one input; nothing was read`,
      );
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
