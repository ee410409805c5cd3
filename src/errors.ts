// A few named errors; the CLI is the only place that turns them into exit codes and stderr lines.

/** Base class: a message the user should see as-is. */
export class DownstackError extends Error {
  override name = 'DownstackError';
}

/** Bad flags or arguments (exit 2). */
export class UsageError extends DownstackError {
  override name = 'UsageError';
}

/** An input that could not be read or parsed at all; carries `file:line` for the message. */
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

/** The provider catalog is invalid; lists every problem found, not just the first. */
export class CatalogError extends DownstackError {
  override name = 'CatalogError';
  constructor(readonly problems: string[]) {
    super(`provider catalog has ${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
  }
}

/** The incident index could not be read or written. */
export class IndexError extends DownstackError {
  override name = 'IndexError';
}

/** 1-based line number of a character offset in a text. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
