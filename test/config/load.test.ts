import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findConfig, parseConfig } from '../../src/config/load.js';
import { UsageError } from '../../src/errors.js';

const STACK = 'test/fixtures/report/configured-stack';
const FILE = join(STACK, '.downstack.yml');

function problems(text: string): string[] {
  try {
    parseConfig(text, 'ci/.downstack.yml');
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message.split('\n');
  }
  throw new Error('expected the config to be rejected');
}

describe('.downstack.yml', () => {
  it('reads defaults, ignore rules with their lines, and resolves paths against the config file', () => {
    const { config } = parseConfig(readFileSync(FILE, 'utf8'), FILE);
    expect(config.options).toEqual({
      since: '2021-08-10',
      failOn: 'active',
      format: 'github',
      index: resolve('test/fixtures/report/index'),
    });
    expect(config.providers).toEqual([resolve(STACK, 'our-providers')]);
    expect(config.ignore.map((rule) => [rule.provider, rule.line, rule.expires])).toEqual([
      ['fx-github', 9, '2099-12-31'],
      ['fx-stripe', 13, '2021-01-31'],
    ]);
  });

  it('reports every problem at once with file:line, unknown keys included', () => {
    const text = [
      'failOn: sometimes',
      'formt: github',
      'ignore:',
      '  - provider: stripe',
      '    reason: ""',
      '    expires: next week',
      '  - provider: aws',
      '    reason: known',
      '    expires: 2026-02-30',
    ].join('\n');
    const lines = problems(text);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^ci\/\.downstack\.yml:1: failOn: /),
        'ci/.downstack.yml:2: formt: unknown key',
        expect.stringMatching(/^ci\/\.downstack\.yml:5: ignore\.0\.reason: say why/),
        expect.stringMatching(/^ci\/\.downstack\.yml:6: ignore\.0\.expires: must be a date like 2026-12-31/),
      ]),
    );
    expect(lines).toHaveLength(5);
    expect(lines).toContain('ci/.downstack.yml:9: ignore.1.expires: is not a real date');
  });

  it('rejects broken YAML with its line', () => {
    expect(problems('since: 30d\nignore: [\n')[0]).toMatch(/^ci\/\.downstack\.yml:\d+: /);
  });

  it('treats an empty file as an empty config', () => {
    expect(parseConfig('', 'x/.downstack.yml').config).toMatchObject({ options: {}, ignore: [], providers: [] });
  });

  it('is found in the scanned directory, next to a scanned file, or named by --config', async () => {
    expect(await findConfig([STACK])).toBe(FILE);
    expect(await findConfig([join(STACK, 'package.json')])).toBe(FILE);
    expect(await findConfig([STACK], 'elsewhere.yml')).toBe('elsewhere.yml');
  });
});
