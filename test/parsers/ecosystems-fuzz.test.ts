// Fuzzing the readers of the other ecosystems: on any text each returns dependencies or throws ParseError, nothing
// else, and never pollutes a prototype. Seeds are the polyglot fixtures, cut, spliced and garbled.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.js';
import { parseBuildGradle } from '../../src/parsers/build-gradle.js';
import { parseCargoLock } from '../../src/parsers/cargo-lock.js';
import { parseComposerLock } from '../../src/parsers/composer-lock.js';
import { parseDockerCompose } from '../../src/parsers/docker-compose.js';
import { parseDockerfile } from '../../src/parsers/dockerfile.js';
import { parseGemfileLock } from '../../src/parsers/gemfile-lock.js';
import { parseGitlabCi } from '../../src/parsers/gitlab-ci.js';
import { parseGoMod } from '../../src/parsers/go-mod.js';
import { parseGradleLockfile } from '../../src/parsers/gradle-lockfile.js';
import { parseVersionCatalog } from '../../src/parsers/gradle-version-catalog.js';
import { parseMsbuildProject } from '../../src/parsers/msbuild-project.js';
import { parseNugetLock } from '../../src/parsers/nuget-lock.js';
import { parsePipfileLock } from '../../src/parsers/pipfile-lock.js';
import { parsePoetryLock } from '../../src/parsers/poetry-lock.js';
import { parsePomXml } from '../../src/parsers/pom-xml.js';
import { parsePyproject } from '../../src/parsers/pyproject-toml.js';
import { parseRequirementsTxt } from '../../src/parsers/requirements-txt.js';
import type { ParseResult } from '../../src/parsers/types.js';
import { parseUvLock } from '../../src/parsers/uv-lock.js';
import { polyglot } from '../helpers/ecosystem-fixtures.js';

const seed = (path: string, lines = 80) => polyglot(path).text.split('\n').slice(0, lines).join('\n');

const CASES: Array<[string, (text: string, path: string) => ParseResult, string]> = [
  ['requirements.txt', parseRequirementsTxt, seed('api/requirements.txt')],
  ['pyproject.toml', parsePyproject, seed('ml/pyproject.toml')],
  [
    'poetry.lock',
    (text, path) => parsePoetryLock(text, path, seed('worker/pyproject.toml')),
    seed('worker/poetry.lock'),
  ],
  ['uv.lock', parseUvLock, seed('ml/uv.lock')],
  ['Pipfile.lock', (text, path) => parsePipfileLock(text, path, seed('legacy/Pipfile')), seed('legacy/Pipfile.lock')],
  ['go.mod', parseGoMod, seed('gateway/go.mod')],
  ['Gemfile.lock', parseGemfileLock, seed('web/Gemfile.lock')],
  ['pom.xml', parsePomXml, seed('billing/pom.xml')],
  ['build.gradle.kts', parseBuildGradle, seed('android/build.gradle.kts')],
  ['libs.versions.toml', parseVersionCatalog, seed('android/gradle/libs.versions.toml')],
  ['gradle.lockfile', parseGradleLockfile, seed('android/gradle.lockfile')],
  ['csproj', parseMsbuildProject, seed('dotnet/Api/Api.csproj')],
  ['packages.lock.json', parseNugetLock, seed('dotnet/Api/packages.lock.json', 60)],
  [
    'composer.lock',
    (text, path) => parseComposerLock(text, path, seed('php/composer.json')),
    seed('php/composer.lock'),
  ],
  ['Cargo.lock', parseCargoLock, seed('rust/Cargo.lock')],
  ['Dockerfile', parseDockerfile, seed('Dockerfile')],
  ['docker-compose.yml', parseDockerCompose, seed('docker-compose.yml')],
  ['.gitlab-ci.yml', parseGitlabCi, seed('.gitlab-ci.yml')],
];

/** A seed garbled in the ways real files break: cut short, a span replaced, a span duplicated, a token inserted. */
const mutated = (text: string) =>
  fc.oneof(
    fc.nat({ max: text.length }).map((at) => text.slice(0, at)),
    fc
      .tuple(fc.nat({ max: text.length }), fc.nat({ max: 40 }), fc.string({ unit: 'binary', maxLength: 20 }))
      .map(([at, drop, insert]) => text.slice(0, at) + insert + text.slice(at + drop)),
    fc
      .tuple(fc.nat({ max: text.length }), fc.nat({ max: text.length }))
      .map(([a, b]) => text.slice(0, Math.max(a, b)) + text.slice(Math.min(a, b))),
    fc
      .tuple(
        fc.nat({ max: text.length }),
        fc.constantFrom(
          '"',
          "'",
          '{',
          '}',
          '[',
          ']',
          '<',
          '>',
          '=',
          ':',
          '\n',
          '  ',
          '__proto__',
          '${',
          '\\\n',
          '\u0000',
        ),
      )
      .map(([at, insert]) => text.slice(0, at) + insert + text.slice(at)),
  );

describe.each(CASES)('%s', (_name, parse, text) => {
  it('returns dependencies or throws ParseError on 600 broken inputs', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          { arbitrary: mutated(text), weight: 4 },
          { arbitrary: fc.string({ unit: 'grapheme', maxLength: 200 }), weight: 1 },
        ),
        (input) => {
          try {
            const result = parse(input, 'input');
            for (const dependency of result.dependencies) expect(typeof dependency.name).toBe('string');
            for (const problem of result.errors) expect(typeof problem.message).toBe('string');
          } catch (error) {
            if (!(error instanceof ParseError)) throw error;
            expect(error.file).toMatch(/input|pyproject\.toml|Pipfile|composer\.json/);
          }
        },
      ),
      { numRuns: 600 },
    );
    expect(Object.prototype).not.toHaveProperty('polluted');
  });
});
