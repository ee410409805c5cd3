// JSON errors name the line and column where the text breaks, and never quote the text itself.
import { describe, expect, it } from 'vitest';
import { ParseError } from '../src/errors.js';
import { parseJsonText } from '../src/json-text.js';

function failure(text: string): ParseError {
  try {
    parseJsonText(text, 'f.json');
  } catch (error) {
    if (error instanceof ParseError) return error;
    throw error;
  }
  throw new Error('parsed');
}

describe('parseJsonText', () => {
  it('names the line and column of a mistake in the middle of a file, not the last line', () => {
    const text = '{\n  "name": "shop",\n  "private": tru,\n  "version": "1.0.0"\n}\n';
    expect(failure(text).located).toBe('f.json:3: invalid JSON at column 14: unexpected text where a value belongs');
    expect(failure('{\n  "a": [1, 2,],\n  "b": 1\n}\n').located).toBe(
      'f.json:2: invalid JSON at column 14: a value was expected (a trailing comma?)',
    );
    expect(failure('{\n  "a": "open\n  , "b": 1\n}\n').located).toBe(
      'f.json:2: invalid JSON at column 8: a string that is not closed on its line',
    );
    expect(failure('{"a": 1}\n{"b": 2}\n').located).toBe(
      'f.json:2: invalid JSON at column 1: more text after the end of the document',
    );
  });

  it('calls a file truncated only when the mistake runs into its end', () => {
    expect(failure('{\n  "a": [1,\n').located).toBe('f.json:3: JSON ends early (truncated file?)');
    expect(failure('{\n  "a": "cut').located).toBe('f.json:2: JSON ends early (truncated file?)');
  });

  it('never repeats the content of the file in the message', () => {
    const secret = 'root:x:0:0:root:/root:/bin/bash';
    expect(failure(`${secret}\n`).message).not.toContain('root');
    expect(failure(`{"key": ${secret}}`).message).not.toContain('root');
  });

  it('reads a byte order mark and very deep nesting', () => {
    expect(parseJsonText('\ufeff{"a": 1}', 'f.json')).toEqual({ a: 1 });
    const depth = 100_000;
    expect(Array.isArray(parseJsonText(`${'['.repeat(depth)}${']'.repeat(depth)}`, 'f.json'))).toBe(true);
  });
});
