import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.js';
import { devGroupGems, parseGemfileLock } from '../../src/parsers/gemfile-lock.js';
import { byName, polyglot } from '../helpers/ecosystem-fixtures.js';

describe('Gemfile.lock', () => {
  const { text, path } = polyglot('web/Gemfile.lock');

  it('takes DEPENDENCIES as declared and follows each spec to its dependencies', () => {
    const { dependencies, errors } = parseGemfileLock(text, path);
    expect(errors).toEqual([]);
    expect(byName(dependencies, 'aws-sdk-s3')).toMatchObject({
      ecosystem: 'rubygems',
      version: '1.147.0',
      line: 22,
      direct: true,
      via: ['web', 'aws-sdk-s3'],
    });
    expect(byName(dependencies, 'aws-sdk-kms')).toMatchObject({
      direct: false,
      via: ['web', 'aws-sdk-s3', 'aws-sdk-kms'],
    });
    expect(byName(dependencies, 'sentry-ruby').via).toEqual(['web', 'sentry-rails', 'sentry-ruby']);
  });

  it('reads git sources (the ! suffix) and one entry per gem however many platforms it is locked for', () => {
    const { dependencies } = parseGemfileLock(text, path);
    expect(byName(dependencies, 'acme-auth')).toMatchObject({ direct: true, version: '0.3.0' });
    expect(byName(dependencies, 'jwt').via).toEqual(['web', 'acme-auth', 'jwt']);
    expect(dependencies.filter((d) => d.name === 'nokogiri')).toEqual([
      expect.objectContaining({ version: '1.16.4', line: 32 }),
    ]);
  });

  it("marks gems only the Gemfile's development and test groups want as dev", () => {
    const { dependencies } = parseGemfileLock(text, path, polyglot('web/Gemfile').text);
    expect(byName(dependencies, 'webmock').kind).toBe('dev');
    expect(byName(dependencies, 'stripe').kind).toBe('prod');
    expect(
      devGroupGems(
        'group :development, :test do\n  gem "rspec-rails"\n  platforms :mri do\n    gem "debug"\n  end\nend\ngem "skylight", groups: [ :production ]\ngem "vcr", group: "test"\ngem "rails"\n',
      ),
    ).toEqual(new Set(['rspec-rails', 'debug', 'vcr']));
  });

  it('refuses a file with no gems', () => {
    expect(() => parseGemfileLock('PLATFORMS\n  ruby\n', 'Gemfile.lock')).toThrow(ParseError);
  });
});

describe('a Gemfile.lock written by Bundler 2.3 (bundle lock --local over Debian-packaged gems)', () => {
  const lock = readFileSync('test/fixtures/ecosystems/bundler-real/Gemfile.lock', 'utf8');
  const gemfile = readFileSync('test/fixtures/ecosystems/bundler-real/Gemfile', 'utf8');

  it('gives the declared gems, their chains, and the test group as dev', () => {
    const { dependencies, errors } = parseGemfileLock(lock, 'bundler-real/Gemfile.lock', gemfile);
    expect(errors).toEqual([]);
    expect(dependencies.filter((d) => d.direct).map((d) => [d.name, d.kind])).toEqual([
      ['aws-sdk-s3', 'prod'],
      ['octokit', 'prod'],
      ['webmock', 'dev'],
    ]);
    expect(byName(dependencies, 'sawyer').via).toEqual(['bundler-real', 'octokit', 'sawyer']);
    expect(byName(dependencies, 'aws-sigv4')).toMatchObject({
      version: '1.5.1',
      via: ['bundler-real', 'aws-sdk-s3', 'aws-sigv4'],
    });
    // crack is only wanted by webmock, a test gem.
    expect(byName(dependencies, 'crack').kind).toBe('dev');
  });
});
