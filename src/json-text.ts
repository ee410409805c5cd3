// JSON parsing that keeps the reason and the line when a file is broken.
import { ParseError, lineAt } from './errors.js';

/** JSON.parse with a `file:line` error; JSON.parse defines `__proto__` as an own key, so no pollution. */
export function parseJsonText(text: string, file: string): unknown {
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    const message = (error as Error).message;
    const lineColumn = /line (\d+) column/.exec(message);
    const position = /position (\d+)/.exec(message);
    const line = lineColumn
      ? Number(lineColumn[1])
      : position
        ? lineAt(text, Number(position[1]))
        : lineAt(text, text.length);
    const offset = position ? Number(position[1]) : text.length;
    const truncated = /^Unexpected end of JSON input/.test(message) || offset >= text.trimEnd().length;
    const reason = truncated
      ? 'JSON ends early (truncated file?)'
      : `invalid JSON: ${message.replace(/\s*\(line \d+ column \d+\)$/, '').replace(/ in JSON at position \d+.*$/, '')}`;
    throw new ParseError(file, line, reason);
  }
}

/** Line of the first `"key":` at or after `from` in a JSON text, or undefined. */
export function lineOfKey(text: string, key: string, from = 0): number | undefined {
  const needle = JSON.stringify(key);
  let index = text.indexOf(needle, from);
  while (index >= 0) {
    const after = text.slice(index + needle.length).match(/^\s*:/);
    if (after) return lineAt(text, index);
    index = text.indexOf(needle, index + needle.length);
  }
  return undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
