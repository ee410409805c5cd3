import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.js';
import { parsePackageJson, packageJsonParser } from '../../src/parsers/package-json.js';

const fixture = (name: string) => `test/fixtures/package-json/${name}`;
const read = (name: string) => readFileSync(fixture(name), 'utf8');

describe('package.json parser', () => {
  it('reads every dependency section with its kind, line and a root-first via chain', () => {
    const { dependencies, errors } = parsePackageJson(read('all-sections.json'), fixture('all-sections.json'));
    expect(errors).toEqual([]);
    const byName = Object.fromEntries(dependencies.map((d) => [d.name, d]));
    expect(Object.keys(byName).sort()).toEqual([
      '@aws-sdk/client-s3',
      '@twingate/cli-helper',
      'react',
      'stripe',
      'vitest',
    ]);
    expect(byName.stripe).toMatchObject({
      ecosystem: 'npm',
      kind: 'prod',
      direct: true,
      line: 5,
      version: '^14.0.0',
      via: ['billing-api', 'stripe'],
    });
    expect(byName.vitest).toMatchObject({ kind: 'dev', line: 9 });
    expect(byName['@twingate/cli-helper']).toMatchObject({ kind: 'optional', line: 13 });
    expect(byName.react).toMatchObject({ kind: 'peer', line: 16 });
  });

  it('reports invalid JSON at the line where it breaks', () => {
    expect(() => parsePackageJson(read('trailing-comma.json'), 'x/package.json')).toThrowError(ParseError);
    try {
      parsePackageJson(read('trailing-comma.json'), 'x/package.json');
    } catch (error) {
      expect((error as ParseError).located).toMatch(/^x\/package\.json:5: invalid JSON/);
    }
  });

  it('says a truncated file ends early', () => {
    try {
      parsePackageJson(read('truncated.json'), 'cut/package.json');
      expect.unreachable();
    } catch (error) {
      expect((error as ParseError).message).toContain('truncated');
      expect((error as ParseError).line).toBe(4);
    }
  });

  it('skips malformed sections and versions with a located message, keeping the rest', () => {
    const text =
      '{\n  "name": "odd",\n  "dependencies": ["stripe"],\n  "devDependencies": {\n    "vitest": 1,\n    "stripe": "1.0.0"\n  }\n}\n';
    const { dependencies, errors } = parsePackageJson(text, 'odd/package.json');
    expect(dependencies.map((d) => [d.name, d.kind])).toEqual([['stripe', 'dev']]);
    expect(errors).toEqual([
      {
        file: 'odd/package.json',
        line: 3,
        message: '"dependencies" must be an object of name → version range; skipped',
      },
      {
        file: 'odd/package.json',
        line: 5,
        message: 'version of "vitest" in devDependencies must be a string; skipped',
      },
    ]);
  });

  it('keeps a "__proto__" dependency as data without polluting prototypes', () => {
    const { dependencies } = parsePackageJson(
      '{"dependencies": {"__proto__": "1.0.0", "stripe": "1"}}',
      'p/package.json',
    );
    expect(dependencies.map((d) => d.name)).toEqual(['__proto__', 'stripe']);
    expect(({} as Record<string, unknown>)['1.0.0']).toBeUndefined();
    expect(dependencies[1]?.via).toEqual(['p', 'stripe']);
  });

  it('is claimed by name and recognised when pasted', () => {
    expect(packageJsonParser.matches('a/b/package.json')).toBe(true);
    expect(packageJsonParser.matches('a/package.json.bak')).toBe(false);
    expect(packageJsonParser.sniff(read('all-sections.json'))).toBe(true);
    expect(packageJsonParser.sniff('{"lockfileVersion": 3, "packages": {"": {"dependencies": {}}}}')).toBe(false);
  });
});
