import { describe, expect, it } from 'vitest';
import { parsePipfileLock } from '../../src/parsers/pipfile-lock.js';
import { byName, polyglot } from '../helpers/ecosystem-fixtures.js';

describe('Pipfile.lock', () => {
  const lock = polyglot('legacy/Pipfile.lock');

  it('marks what the Pipfile declares as direct, develop as dev, with pinned versions and lines', () => {
    const { dependencies, errors } = parsePipfileLock(lock.text, lock.path, polyglot('legacy/Pipfile').text);
    expect(errors).toEqual([]);
    expect(byName(dependencies, 'mailchimp-marketing')).toMatchObject({
      version: '3.0.80',
      direct: true,
      kind: 'prod',
      line: 26,
    });
    expect(byName(dependencies, 'certifi')).toMatchObject({ direct: false });
    expect(byName(dependencies, 'pytest')).toMatchObject({ kind: 'dev', direct: true });
  });

  it('without a Pipfile counts every locked package as declared', () => {
    const { dependencies } = parsePipfileLock(lock.text, lock.path);
    expect(dependencies.every((d) => d.direct)).toBe(true);
  });
});
