// Fuzzing every lockfile parser: on any text it returns dependencies or throws ParseError, nothing else.
// Seeds are the heads of the real fixtures, cut, spliced and garbled, plus arbitrary text.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.js';
import { parseBunLock } from '../../src/parsers/bun-lock.js';
import { parseNpmLock } from '../../src/parsers/npm-lock.js';
import { parsePnpmLock } from '../../src/parsers/pnpm-lock.js';
import type { ParseResult } from '../../src/parsers/types.js';
import { parseYarnLock } from '../../src/parsers/yarn-lock.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/lockfiles/', import.meta.url));
const head = (path: string, lines: number) =>
  readFileSync(`${FIXTURES}${path}`, 'utf8').split('\n').slice(0, lines).join('\n');

/** The importers and the start of the snapshots, so that the seed itself resolves some dependencies. */
function pnpmSeed(): string {
  const text = readFileSync(`${FIXTURES}pnpm-v9-workspaces/pnpm-lock.yaml`, 'utf8');
  const snapshots = text.indexOf('\nsnapshots:');
  return `${text.slice(0, text.indexOf('\npackages:'))}${text.slice(snapshots, text.indexOf('\n\n', snapshots + 3000))}\n`;
}

const CASES: Array<[string, (text: string, path: string) => ParseResult, string]> = [
  ['package-lock.json', parseNpmLock, head('npm-v3-workspaces/package-lock.json', 120)],
  ['yarn.lock v1', parseYarnLock, head('yarn-v1-workspaces/yarn.lock', 120)],
  ['yarn.lock berry', parseYarnLock, head('yarn-berry-workspaces/yarn.lock', 120)],
  ['pnpm-lock.yaml', parsePnpmLock, pnpmSeed()],
  ['bun.lock', parseBunLock, head('bun-workspaces/bun.lock', 60)],
];

/** A seed garbled in the ways real files break: cut short, a span replaced, a span duplicated. */
const mutated = (seed: string) =>
  fc.oneof(
    fc.nat({ max: seed.length }).map((at) => seed.slice(0, at)),
    fc
      .tuple(fc.nat({ max: seed.length }), fc.nat({ max: 40 }), fc.string({ unit: 'binary', maxLength: 20 }))
      .map(([at, drop, insert]) => seed.slice(0, at) + insert + seed.slice(at + drop)),
    fc
      .tuple(fc.nat({ max: seed.length }), fc.nat({ max: seed.length }))
      .map(([a, b]) => seed.slice(0, Math.max(a, b)) + seed.slice(Math.min(a, b))),
    fc
      .tuple(
        fc.nat({ max: seed.length }),
        fc.constantFrom(
          '"',
          "'",
          '{',
          '}',
          '[',
          ']',
          ':',
          ',',
          '\n',
          '  ',
          '__proto__',
          '- ',
          '&a',
          '*a',
          '!!js',
          '\u0000',
          '<<<<<<< HEAD\n',
        ),
      )
      .map(([at, insert]) => seed.slice(0, at) + insert + seed.slice(at)),
  );

describe.each(CASES)('%s', (_name, parse, seed) => {
  it('returns dependencies or throws ParseError on 1,200 broken inputs', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          { arbitrary: mutated(seed), weight: 4 },
          { arbitrary: fc.string({ unit: 'grapheme', maxLength: 200 }), weight: 1 },
        ),
        (text) => {
          try {
            const result = parse(text, 'lock');
            expect(Array.isArray(result.dependencies)).toBe(true);
            for (const dependency of result.dependencies) expect(typeof dependency.name).toBe('string');
            for (const problem of result.errors) expect(problem.file).toBe('lock');
          } catch (error) {
            if (!(error instanceof ParseError)) throw error;
            expect(error.file).toBe('lock');
          }
        },
      ),
      { numRuns: 1200 },
    );
    expect(Object.prototype).not.toHaveProperty('polluted');
  });
});
