import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsePoetryLock } from '../../src/parsers/poetry-lock.js';
import { byName, polyglot } from '../helpers/ecosystem-fixtures.js';

describe('poetry.lock', () => {
  const lock = polyglot('worker/poetry.lock');
  const pyproject = polyglot('worker/pyproject.toml').text;

  it('starts chains at the pyproject.toml declarations and follows [package.dependencies]', () => {
    const { dependencies, errors } = parsePoetryLock(lock.text, lock.path, pyproject);
    expect(errors).toEqual([]);
    expect(byName(dependencies, 'twilio')).toMatchObject({
      ecosystem: 'pypi',
      version: '9.0.4',
      direct: true,
      via: ['acme-worker', 'twilio'],
      line: 96,
    });
    expect(byName(dependencies, 'google-auth')).toMatchObject({
      direct: false,
      via: ['acme-worker', 'google-cloud-storage', 'google-auth'],
    });
  });

  it("keeps Poetry 2's groups: a package only in dev is dev, an extra's package optional", () => {
    const { dependencies } = parsePoetryLock(lock.text, lock.path, pyproject);
    expect(byName(dependencies, 'pytest').kind).toBe('dev');
    expect(byName(dependencies, 'redis').via).toEqual(['acme-worker', 'celery', 'redis']);
    expect(byName(dependencies, 'celery').kind).toBe('prod');
  });

  it('without pyproject.toml takes the packages nothing depends on as declared', () => {
    const { dependencies } = parsePoetryLock(lock.text, lock.path);
    const direct = dependencies.filter((d) => d.direct).map((d) => d.name);
    expect(direct.sort()).toEqual(['celery', 'google-cloud-storage', 'pytest', 'twilio']);
  });

  it('reads a Poetry 1 lock whose dev packages carry category = "dev"', () => {
    const text = [
      '[[package]]',
      'name = "sentry-sdk"',
      'version = "1.40.0"',
      'description = "Python client for Sentry"',
      'category = "main"',
      'optional = false',
      'python-versions = "*"',
      '',
      '[[package]]',
      'name = "black"',
      'version = "24.2.0"',
      'description = "The uncompromising code formatter."',
      'category = "dev"',
      'optional = false',
      'python-versions = ">=3.8"',
      '',
      '[metadata]',
      'lock-version = "1.1"',
      'python-versions = "^3.10"',
      'content-hash = "0f3a"',
      '',
    ].join('\n');
    const { dependencies } = parsePoetryLock(text, 'poetry.lock');
    expect(dependencies.map((d) => [d.name, d.kind, d.line])).toEqual([
      ['sentry-sdk', 'prod', 2],
      ['black', 'dev', 10],
    ]);
  });
});

describe('a poetry.lock written by Poetry 1.3 (Debian) for a project of path dependencies', () => {
  const dir = 'test/fixtures/ecosystems/poetry-real';
  const text = readFileSync(`${dir}/poetry.lock`, 'utf8');
  const pyproject = readFileSync(`${dir}/pyproject.toml`, 'utf8');

  it('reads lock-version 2.0 with categories: a package the dev group declares but main reaches stays prod', () => {
    const { dependencies, errors } = parsePoetryLock(text, `${dir}/poetry.lock`, pyproject);
    expect(errors).toEqual([]);
    expect(dependencies.map((d) => [d.name, d.version, d.direct, d.kind, d.line])).toEqual([
      ['acme-billing', '1.0.0', true, 'prod', 4],
      ['acme-http', '0.2.0', true, 'prod', 21],
    ]);
  });
});
