// The CLI's one catch: named errors end with their own exit code and one line; anything else is a bug, told in one
// line with a hint, never a stack trace unless asked for.
import { describe, expect, it } from 'vitest';
import { describeFailure } from '../src/cli.js';
import {
  CatalogError,
  type DownstackError,
  EXIT,
  ImportError,
  IndexError,
  LockError,
  ParseError,
  ReaderError,
  UsageError,
} from '../src/errors.js';

describe('describeFailure', () => {
  it('gives each named error its own exit code, a held lock included', () => {
    const cases: Array<[DownstackError, number]> = [
      [new UsageError('bad flag'), EXIT.usage],
      [new ParseError('a.json', 3, 'JSON ends early'), EXIT.usage],
      [new CatalogError(['x.yaml:1: bad']), EXIT.usage],
      [new IndexError('cannot write'), EXIT.usage],
      [new ImportError(['no incidents']), EXIT.usage],
      [new LockError('another sync is running'), EXIT.busy],
      [new ReaderError('incidents.json', 'not a Statuspage payload'), EXIT.usage],
    ];
    for (const [error, code] of cases) expect(describeFailure(error, false).code).toBe(code);
    expect(EXIT.busy).not.toBe(EXIT.usage);
  });

  it('prints a parse error as file:line: message and other named errors after "downstack:"', () => {
    expect(describeFailure(new ParseError('a.json', 3, 'JSON ends early'), false).lines).toEqual([
      'a.json:3: JSON ends early',
    ]);
    expect(describeFailure(new UsageError('--since is after --until'), false).lines).toEqual([
      'downstack: --since is after --until',
    ]);
  });

  it('tells a bug in one line with a hint and exit 70, the stack only with DOWNSTACK_DEBUG', () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'length')");
    const plain = describeFailure(bug, false);
    expect(plain.code).toBe(EXIT.internal);
    expect(plain.lines[0]).toMatch(/^downstack: internal error \(a bug in downstack [^)]+\): TypeError: Cannot read/);
    expect(plain.lines[1]).toContain('DOWNSTACK_DEBUG=1');
    expect(plain.lines.join('\n')).not.toMatch(/\n\s+at /);
    const debug = describeFailure(bug, true);
    expect(debug.lines[1]).toMatch(/^TypeError: Cannot read[\s\S]*\n\s+at /);
  });

  it('leaves help and version to commander: exit 0, nothing more to print', () => {
    expect(
      describeFailure(Object.assign(new Error('(outputHelp)'), { code: 'commander.helpDisplayed' }), false),
    ).toEqual({ lines: [], code: EXIT.ok });
    expect(describeFailure(Object.assign(new Error('x'), { code: 'commander.unknownOption' }), false)).toEqual({
      lines: [],
      code: EXIT.usage,
    });
  });
});
