// The output boundary: what may reach a terminal or a CI log, whichever way a value is written.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Chalk } from 'chalk';
import { cleanLine, cleanText, forOutput, joinText, jsonDocument, paint, SafeText, text } from '../src/sanitize.js';

// Written out by hand from the Unicode tables, not derived from the implementation: controls, bidi controls and
// invisible format characters that must never come out.
const RAW =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}]/u;
const HOSTILE = [
  'svc\u001b]0;pwned\u0007\u001b[2J\n::error file=README.md,line=1::forged',
  '\u001bP1$r\u001b\\dcs \u009b31m c1-csi \u001b]8;;https://evil.example\u001b\\link\u001b]8;;\u001b\\',
  'bell\u0007 back\bspace carriage\rreturn del\u007f nel\u0085',
  'bidi \u202egnp.exe\u202c \u2066iso\u2069 \u200emark\u200f alm\u061c',
  'zero\u200bwidth word\u2060joiner bom\ufeff soft\u00adhyphen filler\u3164',
  'tags \u{e0001}\u{e0065}\u{e006e}\u{e007f} selector\u{e0100}',
  '::stop-commands::pause',
  '##[error]legacy ##vso[task.logissue type=error]azure ##teamcity[message text=x]',
];

describe('cleanLine and cleanText', () => {
  it('remove controls, escape sequences, bidi controls and invisible format characters', () => {
    for (const value of HOSTILE) {
      expect(cleanLine(value)).not.toMatch(RAW);
      expect(cleanLine(value)).not.toMatch(/\n/);
      expect(cleanText(value)).not.toMatch(RAW);
    }
    expect(cleanLine(HOSTILE[0] as string)).toBe('svc ::error file=README.md,line=1::forged');
    expect(cleanLine(HOSTILE[3] as string)).toBe('bidi gnp.exe iso mark alm');
  });

  it('keep what real text needs: emoji sequences, joiners in Persian, emoji presentation', () => {
    const family = '\u{1f468}\u200d\u{1f469}\u200d\u{1f467}';
    expect(cleanLine(family)).toBe(family);
    expect(cleanLine('می\u200cخواهم')).toBe('می\u200cخواهم');
    expect(cleanLine('\u2764\ufe0f')).toBe('\u2764\ufe0f');
  });

  it('keep line breaks in cleanText and defuse commands at the start of each line', () => {
    expect(cleanText('first\r\n::error::x\n  ::warning::y\u2028third')).toBe(
      'first\n: :error::x\n  : :warning::y\nthird',
    );
  });

  it('cut long values without splitting a surrogate pair', () => {
    const cut = cleanLine(`${'a'.repeat(8)}\u{1f600}tail`, 10);
    expect(cut).toBe(`${'a'.repeat(8)}…`);
  });
});

describe('the text tag', () => {
  it('puts every value on one line, cleaned, and keeps our own line breaks', () => {
    const out = forOutput(text`${HOSTILE[0] as string}: problem\nnext ${42}`);
    expect(out).toBe('svc ::error file=README.md,line=1::forged: problem\nnext 42');
    expect(out.split('\n')).toHaveLength(2);
  });

  it('defuses a command a value starts, or completes next to a literal, and keeps our own', () => {
    expect(forOutput(text`${'::error::x'}`)).toBe(': :error::x');
    expect(forOutput(text`  ${'::warning::x'}`)).toBe('  : :warning::x');
    expect(forOutput(text`:${':error::x'}`)).toBe(': :error::x');
    expect(forOutput(text`ok\n${'::stop-commands::t'}`)).toBe('ok\n: :stop-commands::t');
    expect(forOutput(text`::warning file=${'a.json'}::${'b ::error::c'}`)).toBe('::warning file=a.json::b ::error::c');
    expect(forOutput(text`see ${'##[error]x and ##vso[task.complete]'}`)).toBe(
      'see # #[error]x and # #vso[task.complete]',
    );
  });

  it('passes SafeText through, so lines can be composed, and keeps padding', () => {
    const inner = text`::notice::${'x'}`;
    expect(forOutput(joinText([inner, text`${'a'.padEnd(4)}|`]))).toBe('::notice::x\na   |');
  });

  it('is the only way to colour: a plain string loses every escape, ours included', () => {
    const c = new Chalk({ level: 1 });
    expect(forOutput(paint(c.red, 'down\u001b[2J'))).toBe('\u001b[31mdown\u001b[39m');
    expect(forOutput(c.red('down'))).toBe('down');
  });

  it('cannot be forged by constructing SafeText directly', () => {
    expect(() => new SafeText('\u001b[2J', Symbol('SafeText'))).toThrow(TypeError);
  });

  it('never lets a raw character or a forged command through, whatever the value', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        const out = forOutput(text`${a}:${b}\n${b}`);
        expect(out).not.toMatch(RAW);
        for (const line of out.split('\n')) expect(line).not.toMatch(/^\s*::/);
        expect(out).not.toMatch(/##[a-z]*\[/i);
      }),
      { numRuns: 500 },
    );
  });
});

describe('forOutput on a plain string', () => {
  it('cleans the whole text, keeps its lines and defuses every command', () => {
    const out = forOutput(`report\n${HOSTILE.join('\n')}\n`);
    expect(out).not.toMatch(RAW);
    for (const line of out.split('\n')) expect(line).not.toMatch(/^\s*::/);
    expect(out).not.toMatch(/##[a-z]*\[/i);
    expect(out.startsWith('report\nsvc\n: :error file=README.md')).toBe(true);
  });
});

describe('jsonDocument', () => {
  it('keeps the data exact while nothing unsafe is written raw', () => {
    const data = { values: HOSTILE, nested: { 'key\u202e': 'x\u2028y' } };
    const out = forOutput(jsonDocument(data));
    expect(out).not.toMatch(RAW);
    expect(out).not.toMatch(/[\u2028\u2029]/);
    expect(out).not.toMatch(/##[a-z]*\[/i);
    expect(JSON.parse(out)).toEqual(data);
  });
});
