// Lines of values in formats whose parsers give none (TOML, JSON): the first line where the literal is written.
import { lineAt } from '../../errors.js';
import { lineLocator } from '../../line-locator.js';

/** Line of the first occurrence of `value` written as a quoted string (either quote), at or after `from`. */
export function lineOfString(source: string, value: string, from = 0): number | undefined {
  for (const quoted of [JSON.stringify(value), `'${value}'`]) {
    const index = source.indexOf(quoted, from);
    if (index >= 0) return lineAt(source, index);
  }
  return undefined;
}

/** Offset of the line that opens a TOML table (`[triggers]`, `[functions."name"]`), for searching after it. */
export function offsetOfLine(source: string, pattern: RegExp): number {
  const match = pattern.exec(source);
  return match ? match.index : 0;
}

/**
 * Many lookups in one text (a lockfile's packages): the line starts are found once, and each search starts where
 * the caller says (a section's offset).
 */
export function textLines(text: string) {
  const lineOf = lineLocator(text);
  return {
    /** Line of the first `needle` at or after `from`, or undefined. */
    find(needle: string, from = 0): number | undefined {
      const at = text.indexOf(needle, from);
      return at >= 0 ? lineOf(at) : undefined;
    },
    offset(needle: string, from = 0): number {
      return text.indexOf(needle, from);
    },
    lineAt: lineOf,
  };
}
