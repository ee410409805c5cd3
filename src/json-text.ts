// JSON parsing that keeps the reason and the line when a file is broken.
import { createRequire } from 'node:module';
import { ParseErrorCode } from 'jsonc-parser';
import { ParseError, lineAt } from './errors.js';

/** jsonc-parser's scanner, loaded only for a broken file: every start-up reads JSON, hardly any a broken one. */
const jsonc = () => createRequire(import.meta.url)('jsonc-parser') as typeof import('jsonc-parser');

/**
 * JSON.parse with a `file:line` error; JSON.parse defines `__proto__` as an own key, so no pollution. JSON.parse
 * names no position for most mistakes (and quotes the text around them), so a broken file is scanned once more to
 * find where it breaks; the message never repeats the file's content.
 */
export function parseJsonText(text: string, file: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body);
  } catch {
    throw locateJsonError(body, file);
  }
}

function locateJsonError(text: string, file: string): ParseError {
  let first: { code: ParseErrorCode; end: number; line: number; column: number } | undefined;
  try {
    jsonc().visit(
      text,
      {
        onError: (code, offset, length, line, column) => {
          first ??= { code, end: offset + length, line: line + 1, column: column + 1 };
        },
      },
      { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
    );
  } catch (error) {
    // The scanner recurses; a file nested deeper than the stack allows is named without a position.
    if (!(error instanceof RangeError)) throw error;
  }
  if (!first) return new ParseError(file, undefined, 'invalid JSON (nested too deeply to say where)');
  // Only a mistake that runs into the end of the text is a truncation; anything else is named where it is.
  if (first.end >= text.trimEnd().length)
    return new ParseError(file, lineAt(text, text.length), 'JSON ends early (truncated file?)');
  return new ParseError(file, first.line, `invalid JSON at column ${first.column}: ${describeJsonError(first.code)}`);
}

/** What a JSON scanner's error code means, in words (shared with the JSONC reader). */
export function describeJsonError(code: ParseErrorCode): string {
  switch (code) {
    case ParseErrorCode.InvalidSymbol:
      return 'unexpected text where a value belongs';
    case ParseErrorCode.InvalidNumberFormat:
    case ParseErrorCode.UnexpectedEndOfNumber:
      return 'a malformed number';
    case ParseErrorCode.UnexpectedEndOfString:
      return 'a string that is not closed on its line';
    case ParseErrorCode.PropertyNameExpected:
      return 'a quoted property name was expected (a trailing comma?)';
    case ParseErrorCode.ValueExpected:
      return 'a value was expected (a trailing comma?)';
    case ParseErrorCode.ColonExpected:
      return 'a colon was expected';
    case ParseErrorCode.CommaExpected:
      return 'a comma was expected';
    case ParseErrorCode.CloseBraceExpected:
      return '"}" was expected';
    case ParseErrorCode.CloseBracketExpected:
      return '"]" was expected';
    case ParseErrorCode.EndOfFileExpected:
      return 'more text after the end of the document';
    case ParseErrorCode.InvalidCommentToken:
    case ParseErrorCode.UnexpectedEndOfComment:
      return 'a comment (JSON has none)';
    case ParseErrorCode.InvalidUnicode:
      return 'a malformed \\u escape';
    case ParseErrorCode.InvalidEscapeCharacter:
      return 'a malformed escape in a string';
    case ParseErrorCode.InvalidCharacter:
      return 'a control character inside a string';
    default:
      return jsonc().printParseErrorCode(code);
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
