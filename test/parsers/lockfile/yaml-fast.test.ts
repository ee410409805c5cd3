// The fast YAML subset reader may only be used because it reads every pnpm and yarn berry fixture exactly as
// the yaml library does (keys, lines, scalars), and hands anything outside its subset back to the library.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../../src/errors.js';
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

describe('flow values the lockfile readers may never ask for', () => {
  const lock = (text: string) => readYamlLock(text, 'pnpm-lock.yaml');
  const both = (text: string) => {
    const fast = lock(text);
    const full = readYamlLock(text, 'pnpm-lock.yaml', { fast: false });
    return [dump(fast, fast.root), dumpFull(full, full.root)];
  };

  it.each([
    [
      'an escape JSON does not have',
      'packages:\n  a@1.0.0:\n    resolution: {tarball: "https://r.example/a-\\x41.tgz"}\n',
    ],
    ['a float that loses its written form', 'packages:\n  a@1.0.0:\n    engines: {node: 1.10}\n'],
    ['a tag', 'packages:\n  a@1.0.0:\n    engines: {node: !!str 18}\n'],
    ['a pair inside a sequence', 'packages:\n  a@1.0.0:\n    os: [linux: x64, darwin]\n'],
  ])('%s: read by the library where it stands, as the library reads the whole file', (_name, text) => {
    expect(readFastYaml(text)).toBeUndefined();
    const [fast, full] = both(text);
    expect(fast).toEqual(full);
  });

  it('a flow with an anchor is read with the text, so an alias elsewhere is the library’s to resolve', () => {
    const text = 'packages:\n  a@1.0.0:\n    engines: {node: &n ">=18"}\n  b@1.0.0:\n    engines: {node: *n}\n';
    const [fast, full] = both(text);
    expect(fast).toEqual(full);
    expect(JSON.stringify(fast)).toContain('>=18');
  });

  it('one that breaks YAML fails with its own line when it is read', () => {
    const text = 'lockfileVersion: "9.0"\npackages:\n  a@1.0.0:\n    resolution: {integrity: a: b}\n';
    const fast = lock(text);
    const entry = fast.entries(fast.get(fast.root, 'packages'))[0];
    expect(() => fast.get(entry?.value, 'resolution')).toThrow(ParseError);
    try {
      fast.get(entry?.value, 'resolution');
    } catch (error) {
      expect(error).toMatchObject({ file: 'pnpm-lock.yaml', line: 4 });
      expect((error as Error).message).toMatch(/invalid YAML/);
    }
    // What the readers do ask for is still read.
    expect(fast.scalar(fast.get(fast.root, 'lockfileVersion'))).toBe('9.0');
  });

  it.each([
    ['cut before it closes', 'packages:\n  a@1.0.0:\n    resolution: {integrity: sha512-abc\n'],
    [
      'nested deeper than the reader goes',
      `packages:\n  a@1.0.0:\n    resolution: ${'['.repeat(40)}${']'.repeat(40)}\n`,
    ],
  ])('one %s is not left for later: the whole file goes to the library', (_name, text) => {
    expect(readFastYaml(text, { flows: 'when-read' })).toBeUndefined();
  });
});
