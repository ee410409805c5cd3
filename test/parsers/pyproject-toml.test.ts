import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.js';
import { parsePyproject } from '../../src/parsers/pyproject-toml.js';
import { byName, polyglot } from '../helpers/ecosystem-fixtures.js';

describe('pyproject.toml', () => {
  it('reads PEP 621 dependencies, optional groups and PEP 735 dependency groups with their kinds', () => {
    const { text, path } = polyglot('ml/pyproject.toml');
    const { dependencies, errors } = parsePyproject(text, path);
    expect(errors).toEqual([]);
    expect(dependencies.map((d) => [d.name, d.version, d.kind, d.line])).toEqual([
      ['openai', '>=1.30', 'prod', 6],
      ['pinecone', '>=4.0', 'prod', 7],
      ['boto3', '>=1.34', 'optional', 11],
      ['pytest', '>=8.2', 'dev', 14],
    ]);
    expect(byName(dependencies, 'openai').via).toEqual(['acme-ml', 'openai']);
  });

  it('reads Poetry tables and groups, without the python constraint', () => {
    const { text, path } = polyglot('worker/pyproject.toml');
    const { dependencies } = parsePyproject(text, path);
    expect(dependencies.map((d) => [d.name, d.version, d.kind, d.line])).toEqual([
      ['celery', '^5.3', 'prod', 10],
      ['twilio', '^9.0.0', 'prod', 11],
      ['google-cloud-storage', '^2.16', 'prod', 12],
      ['pytest', '^8.1', 'dev', 15],
    ]);
  });

  it('reports a broken TOML file at its line', () => {
    const error = (() => {
      try {
        parsePyproject('[project]\nname = "x"\ndependencies = ["a",\n[tool', 'pyproject.toml');
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).line).toBeGreaterThanOrEqual(3);
    expect((error as ParseError).message).toMatch(/not valid TOML/);
  });

  it('skips a dependency list that is not a list, with its line', () => {
    const { dependencies, errors } = parsePyproject('[project]\nname = "x"\ndependencies = "stripe"\n', 'p.toml');
    expect(dependencies).toEqual([]);
    expect(errors[0]).toMatchObject({ line: 3, message: expect.stringMatching(/must be a list/) });
  });
});

describe('pyproject.toml quoting', () => {
  it('finds the line of a requirement written in single quotes', () => {
    const { dependencies } = parsePyproject("[project]\nname = 'x'\ndependencies = [\n  'stripe>=9',\n]\n", 'p.toml');
    expect(dependencies.map((d) => [d.name, d.line])).toEqual([['stripe', 4]]);
  });
});
