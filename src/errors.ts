// Exit codes and the one error hierarchy. Each error class carries the exit code it ends the process with; the CLI
// (src/cli.ts) is the only place that turns an error into a stderr line and an exit code.

/**
 * Every exit code downstack uses, by name. The contract (README "Exit codes", docs/json.md) lists the same ones;
 * commands never write a number.
 */
export const EXIT = {
  /** Ran fine; nothing met `--fail-on`. */
  ok: 0,
  /** `check`: a finding met `--fail-on`. */
  failOn: 1,
  /** `explain`: the target is not in the scanned stack. */
  notInStack: 1,
  /** `sync`: at least one provider could not be synced (the others were). */
  syncFailed: 1,
  /** Usage error: a bad flag, argument or config file, or an input that could not be read at all. */
  usage: 2,
  /** No supported input found in the paths given. */
  noInput: 3,
  /** `import`: stored what it could read and reported each entry it could not (`file:line: entry "…": …`). */
  partial: 4,
  /** A bug in downstack, not a mistake of the user's (sysexits EX_SOFTWARE). */
  internal: 70,
  /** `sync --backfill` stopped by Ctrl-C after merging what it had fetched (128 + SIGINT, as shells report it). */
  interrupted: 130,
  /** Another downstack process holds the index; try again shortly (sysexits EX_TEMPFAIL). */
  busy: 75,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Base class: a message the user should see as-is, and the exit code it ends the run with. */
export class DownstackError extends Error {
  override name = 'DownstackError';
  readonly exitCode: ExitCode = EXIT.usage;
}

/** Bad flags, arguments or config (exit 2). */
export class UsageError extends DownstackError {
  override name = 'UsageError';
}

/** An input that could not be read or parsed at all; carries `file:line` for the message (exit 2). */
export class ParseError extends DownstackError {
  override name = 'ParseError';
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    message: string,
  ) {
    super(message);
  }

  /** `file:line: message`, the format every input problem is reported in. */
  get located(): string {
    return `${this.file}${this.line ? `:${this.line}` : ''}: ${this.message}`;
  }
}

/** The provider catalog is invalid; lists every problem found, not just the first (exit 2). */
export class CatalogError extends DownstackError {
  override name = 'CatalogError';
  constructor(readonly problems: string[]) {
    super(`provider catalog has ${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
  }
}

/** The incident index could not be read or written (exit 2). */
export class IndexError extends DownstackError {
  override name = 'IndexError';
}

/** Another process holds the index lock past the wait (exit 75: not a usage error, worth a retry). */
export class LockError extends DownstackError {
  override name = 'LockError';
  override readonly exitCode = EXIT.busy;
}

/** Nothing could be imported; every problem in every document is listed, and nothing was written (exit 2). */
export class ImportError extends DownstackError {
  override name = 'ImportError';
  constructor(readonly problems: string[]) {
    super(`nothing imported, nothing written:\n  ${problems.join('\n  ')}`);
  }
}

/**
 * A whole document or payload is not what its reader reads (wrong shape, HTML instead of JSON…), located like any
 * input (src/readers/). Sync counts it against that provider (exit 1 for the run); import lists it (exit 2 when
 * nothing was read).
 */
export class ReaderError extends ParseError {
  override name = 'ReaderError';
  constructor(source: string, message: string, line?: number) {
    super(source, line, message);
  }
}

/** 1-based line number of a character offset in a text. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
