import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.js';
import { parseUvLock } from '../../src/parsers/uv-lock.js';
import { byName, polyglot } from '../helpers/ecosystem-fixtures.js';

describe('uv.lock', () => {
  const { text, path } = polyglot('ml/uv.lock');

  it('starts at the virtual project package and keeps prod, optional and dev edges apart', () => {
    const { dependencies, errors } = parseUvLock(text, path);
    expect(errors).toEqual([]);
    expect(byName(dependencies, 'openai')).toMatchObject({
      direct: true,
      kind: 'prod',
      via: ['acme-ml', 'openai'],
      line: 60,
    });
    expect(byName(dependencies, 'boto3')).toMatchObject({ direct: true, kind: 'optional' });
    expect(byName(dependencies, 'botocore')).toMatchObject({
      direct: false,
      kind: 'optional',
      via: ['acme-ml', 'boto3', 'botocore'],
    });
    expect(byName(dependencies, 'pytest')).toMatchObject({ kind: 'dev' });
    expect(byName(dependencies, 'httpx').via).toEqual(['acme-ml', 'openai', 'httpx']);
    expect(dependencies.map((d) => d.name)).not.toContain('acme-ml');
  });

  it('reads a package whose version is a table (TOML tables have no prototype) without crashing', () => {
    const { dependencies } = parseUvLock('version = 1\n\n[[package]]\nname = "a"\nversion = {}\n', 'uv.lock');
    expect(dependencies.map((d) => [d.name, d.version])).toEqual([['a', undefined]]);
  });

  it('needs [[package]] tables', () => {
    expect(() => parseUvLock('version = 1\nrequires-python = ">=3.12"\n', 'uv.lock')).toThrow(ParseError);
  });
});
