import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.js';
import { parseGoMod } from '../../src/parsers/go-mod.js';
import { byName, polyglot } from '../helpers/ecosystem-fixtures.js';

describe('go.mod', () => {
  const { text, path } = polyglot('gateway/go.mod');

  it('reads require blocks: direct modules, and // indirect ones as not declared by the module', () => {
    const { dependencies, errors } = parseGoMod(text, path);
    expect(errors).toEqual([]);
    expect(dependencies).toHaveLength(10);
    expect(byName(dependencies, 'github.com/stripe/stripe-go/v76')).toMatchObject({
      ecosystem: 'go',
      version: 'v76.25.0',
      line: 13,
      direct: true,
      via: ['github.com/acme/gateway', 'github.com/stripe/stripe-go/v76'],
    });
    expect(byName(dependencies, 'github.com/aws/smithy-go')).toMatchObject({ direct: false, line: 18 });
  });

  it('reads a one-line require and says which lines it skipped', () => {
    const { dependencies, errors } = parseGoMod(
      'module example.com/app\n\ngo 1.21\n\nrequire github.com/twilio/twilio-go v1.20.0\nrequire nonsense\nfrobnicate all\n',
      'go.mod',
    );
    expect(dependencies.map((d) => [d.name, d.line])).toEqual([['github.com/twilio/twilio-go', 5]]);
    expect(errors.map((e) => e.line)).toEqual([6, 7]);
  });

  it('names a block left open, and refuses text without a module line', () => {
    expect(parseGoMod('module m\nrequire (\n\ta/b v1.0.0\n', 'go.mod').errors[0]?.message).toMatch(/never closed/);
    expect(() => parseGoMod('hello\n', 'go.mod')).toThrow(ParseError);
  });
});

describe('a go.mod written by go mod tidy (Go 1.19, Debian; local replacements, so no proxy)', () => {
  it('reads its one-line requires, the indirect one as not declared, and leaves replace directives alone', () => {
    const { dependencies, errors } = parseGoMod(
      readFileSync('test/fixtures/ecosystems/go-real/go.mod', 'utf8'),
      'go.mod',
    );
    expect(errors).toEqual([]);
    expect(dependencies.map((d) => [d.name, d.version, d.direct, d.line])).toEqual([
      ['example.com/billing', 'v0.0.0', true, 9],
      ['example.com/httpx', 'v0.0.0', false, 11],
    ]);
  });
});
