// The fast YAML subset reader may only be used because it reads every pnpm and yarn berry fixture exactly as
// the yaml library does (keys, lines, scalars), and hands anything outside its subset back to the library.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readFastYaml } from '../../../src/parsers/lockfile/yaml-fast.js';
import { readYamlLock, type YamlLock } from '../../../src/parsers/lockfile/yaml-lock.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/lockfiles/', import.meta.url));

/** Every key with its line, every scalar, every sequence item: what the lockfile parsers can observe. */
function dump(lock: YamlLock, node: unknown): unknown {
  const scalar = lock.scalar(node);
  if (scalar !== undefined) return scalar;
  if (Array.isArray(node)) return node.map((item) => dump(lock, item));
  const entries = lock.entries(node);
  if (entries.length === 0) return node === null || node === undefined ? null : {};
  return entries.map((entry) => [entry.key, entry.line, dump(lock, entry.value)]);
}

function dumpFull(lock: YamlLock, node: unknown): unknown {
  const items = (node as { items?: unknown[] } | null)?.items;
  const isSeq =
    Array.isArray(items) && lock.entries(node).length === 0 && items.length > 0 && !(items[0] as { key?: unknown }).key;
  if (isSeq) return items.map((item) => dumpFull(lock, item));
  const scalar = lock.scalar(node);
  if (scalar !== undefined) return scalar;
  const entries = lock.entries(node);
  if (entries.length === 0)
    return node === null || node === undefined || (node as { value?: unknown }).value === null ? null : {};
  return entries.map((entry) => [entry.key, entry.line, dumpFull(lock, entry.value)]);
}

describe.each([
  'pnpm-v9-workspaces/pnpm-lock.yaml',
  'pnpm-v6-workspaces/pnpm-lock.yaml',
  'pnpm-large/pnpm-lock.yaml',
  'yarn-berry-workspaces/yarn.lock',
])('%s', (fixture) => {
  it('is read by the fast reader exactly as by the yaml library', () => {
    const text = readFileSync(`${FIXTURES}${fixture}`, 'utf8');
    expect(readFastYaml(text)).toBeDefined();
    const fast = readYamlLock(text, fixture);
    const full = readYamlLock(text, fixture, { fast: false });
    expect(dump(fast, fast.root)).toEqual(dumpFull(full, full.root));
  });
});

describe('literal block scalars (a deprecation message in real pnpm lockfiles)', () => {
  const deprecated = (indicator: string, after: string) =>
    `packages:\n  q@1.5.1:\n    resolution: {integrity: sha512-x}\n    deprecated: ${indicator}\n      You or someone you depend on uses Q.\n\n      (For a CapTP, see @endo/captp)\n${after}`;
  it.each([
    [
      'stripped, with an empty line inside, then the next package',
      deprecated('|-', '\n  qs@6.10.4:\n    resolution: {integrity: sha512-y}\n'),
    ],
    ['clipped, at the end of the file', deprecated('|', '')],
    [
      'clipped, followed by blank lines and a key of the same mapping',
      deprecated('|', '\n\n    engines: {node: ">=0.6"}\n'),
    ],
    ['kept, followed by blank lines and the next package', deprecated('|+', '\n\n  qs@6.10.4:\n    dev: false\n')],
  ])('%s: read by the fast reader exactly as by the yaml library', (_name, text) => {
    expect(readFastYaml(text)).toBeDefined();
    const fast = readYamlLock(text, 'pnpm-lock.yaml');
    const full = readYamlLock(text, 'pnpm-lock.yaml', { fast: false });
    expect(dump(fast, fast.root)).toEqual(dumpFull(full, full.root));
  });
});

describe('outside the subset the yaml library takes over', () => {
  it.each([
    ['an anchor and alias', 'a: &x 1.0.0\nb: *x\n'],
    ['a folded block scalar', 'a: >\n  text\n'],
    ['a block scalar with an indentation indicator', 'a: |2\n   text\n'],
    ['a blank line in a block scalar that keeps spaces', 'a: |\n  one\n     \n  two\n'],
    ['a tag', 'a: !!str 1\n'],
    ['a duplicate key', 'a: 1\na: 2\n'],
    ['a tab', 'a:\n\tb: 1\n'],
    ['a multi-line plain scalar', 'a: one\n  two\n'],
    ['a float whose written form YAML does not keep', 'lockfileVersion: 5.40\n'],
    ['a document marker', '---\na: 1\n'],
    ['a mapping inside a sequence', 'a:\n  - b: 1\n'],
  ])('%s', (_name, text) => {
    expect(readFastYaml(text)).toBeUndefined();
  });

  it('and the duplicate key still fails with its line', () => {
    expect(() => readYamlLock('a: 1\na: 2\n', 'x.yaml')).toThrow(/unique/i);
  });
});
