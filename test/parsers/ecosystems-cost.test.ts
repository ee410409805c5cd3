// Large lockfiles of the other registries cost linear time: the time at 4n packages is compared with the time at n
// (never with a clock budget). Each package depends on two others (a tree a few levels deep, as real lockfiles are).
import { describe, expect, it } from 'vitest';
import { parseCargoLock } from '../../src/parsers/cargo-lock.js';
import { parseComposerLock } from '../../src/parsers/composer-lock.js';
import { parseGemfileLock } from '../../src/parsers/gemfile-lock.js';
import { parseNugetLock } from '../../src/parsers/nuget-lock.js';
import { parsePipfileLock } from '../../src/parsers/pipfile-lock.js';
import { parsePoetryLock } from '../../src/parsers/poetry-lock.js';
import { parseRequirementsTxt } from '../../src/parsers/requirements-txt.js';

/** Best of three runs, so one pause of a shared machine (or a garbage collection) does not decide. */
function timeOf(work: () => void): number {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round++) {
    const start = performance.now();
    work();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/** Linear growth makes 4x the packages cost about 4x the time; quadratic makes it 16x. The bound sits between. */
function expectLinear(make: (packages: number) => () => void, packages = 3_000): void {
  make(packages / 4)();
  const small = timeOf(make(packages));
  const large = timeOf(make(packages * 4));
  expect(large / Math.max(small, 5)).toBeLessThan(12);
}

const name = (i: number) => `pkg-${i}`;
const children = (i: number, n: number) => [2 * i + 1, 2 * i + 2].filter((child) => child < n);

const cargo = (n: number) =>
  `version = 4\n\n[[package]]\nname = "app"\nversion = "0.1.0"\ndependencies = [\n "${name(0)}",\n]\n\n${Array.from(
    { length: n },
    (_, i) =>
      `[[package]]\nname = "${name(i)}"\nversion = "1.0.${i}"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "${'0'.repeat(64)}"\ndependencies = [\n${children(
        i,
        n,
      )
        .map((child) => ` "${name(child)}",`)
        .join('\n')}\n]\n`,
  ).join('\n')}`;

const poetry = (n: number) =>
  `${Array.from(
    { length: n },
    (_, i) =>
      `[[package]]\nname = "${name(i)}"\nversion = "1.0.${i}"\ndescription = ""\noptional = false\npython-versions = ">=3.8"\ngroups = ["main"]\nfiles = []\n\n[package.dependencies]\n${children(
        i,
        n,
      )
        .map((child) => `${name(child)} = ">=1"`)
        .join('\n')}\n`,
  ).join('\n')}\n[metadata]\nlock-version = "2.1"\npython-versions = "^3.11"\ncontent-hash = "0"\n`;

const gemfile = (n: number) =>
  `GEM\n  remote: https://rubygems.org/\n  specs:\n${Array.from(
    { length: n },
    (_, i) =>
      `    ${name(i)} (1.0.${i})\n${children(i, n)
        .map((child) => `      ${name(child)} (>= 1)\n`)
        .join('')}`,
  ).join('')}\nPLATFORMS\n  ruby\n\nDEPENDENCIES\n  ${name(0)}\n\nBUNDLED WITH\n   2.5.9\n`;

const nuget = (n: number) =>
  JSON.stringify(
    {
      version: 1,
      dependencies: {
        'net8.0': Object.fromEntries(
          Array.from({ length: n }, (_, i) => [
            name(i),
            {
              type: i === 0 ? 'Direct' : 'Transitive',
              resolved: `1.0.${i}`,
              contentHash: 'x',
              dependencies: Object.fromEntries(children(i, n).map((child) => [name(child), '1.0.0'])),
            },
          ]),
        ),
      },
    },
    null,
    2,
  );

const pipfile = (n: number) =>
  JSON.stringify(
    {
      _meta: { 'pipfile-spec': 6 },
      default: Object.fromEntries(Array.from({ length: n }, (_, i) => [name(i), { version: `==1.0.${i}` }])),
      develop: {},
    },
    null,
    4,
  );

const composer = (n: number) =>
  JSON.stringify(
    {
      'content-hash': '0',
      packages: Array.from({ length: n }, (_, i) => ({
        name: `acme/${name(i)}`,
        version: `1.0.${i}`,
        require: Object.fromEntries(children(i, n).map((child) => [`acme/${name(child)}`, '^1.0'])),
      })),
      'packages-dev': [],
    },
    null,
    4,
  );

/** pip-compile output: each package names the one that wants it in `# via`. */
const requirements = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `${name(i)}==1.0.${i}\n    # via ${i === 0 ? '-r requirements.in' : name(Math.floor((i - 1) / 2))}\n`,
  ).join('');

describe('large lockfiles of the other registries cost linear time', () => {
  it('Cargo.lock, poetry.lock and Gemfile.lock', () => {
    expectLinear((n) => () => parseCargoLock(cargo(n), 'Cargo.lock'));
    expectLinear((n) => () => parsePoetryLock(poetry(n), 'poetry.lock'));
    expectLinear((n) => () => parseGemfileLock(gemfile(n), 'Gemfile.lock'));
  });

  it('packages.lock.json, Pipfile.lock, composer.lock and pip-compile output', () => {
    expectLinear((n) => () => parseNugetLock(nuget(n), 'packages.lock.json'));
    expectLinear((n) => () => parsePipfileLock(pipfile(n), 'Pipfile.lock'));
    expectLinear((n) => () => parseComposerLock(composer(n), 'composer.lock'));
    expectLinear((n) => () => parseRequirementsTxt(requirements(n), 'requirements.txt'));
  });
});
