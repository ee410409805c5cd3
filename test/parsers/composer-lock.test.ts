import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.js';
import { parseComposerLock } from '../../src/parsers/composer-lock.js';
import { byName, polyglot } from '../helpers/ecosystem-fixtures.js';

describe('composer.lock', () => {
  const lock = polyglot('php/composer.lock');
  const manifest = polyglot('php/composer.json').text;

  it("starts at composer.json's requirements, skips platform packages, packages-dev as dev", () => {
    const { dependencies, errors } = parseComposerLock(lock.text, lock.path, manifest);
    expect(errors).toEqual([]);
    expect(byName(dependencies, 'stripe/stripe-php')).toMatchObject({
      ecosystem: 'composer',
      version: 'v14.5.0',
      direct: true,
      via: ['acme/storefront', 'stripe/stripe-php'],
      line: 60,
    });
    expect(byName(dependencies, 'aws/aws-sdk-php')).toMatchObject({
      direct: false,
      via: ['acme/storefront', 'league/flysystem-aws-s3-v3', 'aws/aws-sdk-php'],
    });
    expect(byName(dependencies, 'phpunit/phpunit').kind).toBe('dev');
    expect(dependencies.map((d) => d.name)).not.toContain('php');
  });

  it('without composer.json takes what nothing requires as declared', () => {
    const { dependencies } = parseComposerLock(lock.text, lock.path);
    expect(
      dependencies
        .filter((d) => d.direct)
        .map((d) => d.name)
        .sort(),
    ).toEqual(['laravel/framework', 'league/flysystem-aws-s3-v3', 'phpunit/phpunit', 'stripe/stripe-php']);
  });

  it('refuses JSON that is no lockfile', () => {
    expect(() => parseComposerLock('{"name": "x"}', 'composer.lock')).toThrow(ParseError);
  });
});

describe('a composer.lock written by Composer 2.5 (Debian; path repositories, so no Packagist)', () => {
  const dir = 'test/fixtures/ecosystems/composer-real';

  it('starts at composer.json, follows require, and keeps packages-dev as dev', () => {
    const { dependencies, errors } = parseComposerLock(
      readFileSync(`${dir}/composer.lock`, 'utf8'),
      `${dir}/composer.lock`,
      readFileSync(`${dir}/composer.json`, 'utf8'),
    );
    expect(errors).toEqual([]);
    expect(dependencies.map((d) => [d.via.join(' → '), d.version, d.kind])).toEqual([
      ['acme/shop → acme/billing', '2.0.0', 'prod'],
      ['acme/shop → acme/billing → acme/http', '1.2.0', 'prod'],
      ['acme/shop → acme/testkit', '0.3.0', 'dev'],
    ]);
  });
});
