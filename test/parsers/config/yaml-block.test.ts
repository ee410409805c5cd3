// The fast block reader against the yaml library: on every text it takes, the same nodes (kinds, values with their
// types, keys, order) on the same lines; every text outside its subset is left to the library.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBlockYaml } from '../../../src/parsers/config/yaml-block.js';
import {
  isMap,
  isScalar,
  readingShape,
  readYaml,
  readYamlWithLibrary,
} from '../../../src/parsers/config/yaml-nodes.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');

const shape = readingShape;

function takenAndEqual(text: string): boolean {
  if (!readBlockYaml(text)) return false;
  expect(shape(readYaml(text, 'x.yml'))).toEqual(shape(readYamlWithLibrary(text, 'x.yml')));
  return true;
}

const WORKFLOW = `name: CI
on:
  push:
    branches: [main, "release/*"]
  schedule:
    - cron: '30 4 * * 1-5'   # weekdays
  workflow_dispatch:
env:
  REGISTRY: ghcr.io
  RETRIES: 3
  VERBOSE: true
  EMPTY: ~
jobs:
  build:
    runs-on: ubuntu-latest
    timeout-minutes: 20
    container:
    services:
      db:
        image: "postgres:16"
    steps:
    - uses: actions/checkout@v4
    - name: Build
      run: |
        npm ci
        npm run build

      env:
        "quoted key": 'it''s'
    - run: |-
        curl -fsS https://api.example.com/health
    - uses: docker/login-action@v3
      with:
        registry: \${{ env.REGISTRY }}
  deploy:
    needs: [build]
    runs-on:
      - self-hosted
      - linux
    steps:
      - run: echo done # trailing comment
`;

describe('the fast block YAML reader', () => {
  it('reads a workflow with sequences of mappings, literal blocks, typed scalars and flow lists as the library does', () => {
    expect(takenAndEqual(WORKFLOW)).toBe(true);
    const root = readBlockYaml(WORKFLOW)?.[0];
    const env = isMap(root) ? root.items.find((pair) => isScalar(pair.key) && pair.key.value === 'env')?.value : null;
    expect(isMap(env) && env.items.map((pair) => (isScalar(pair.value) ? pair.value.value : undefined))).toEqual([
      'ghcr.io',
      3,
      true,
      null,
    ]);
  });

  it('takes the shapes real files use, each as the library reads it', () => {
    const cases = [
      'a: 1\nb:\n- x\n- y\nc: z\n',
      'list:\n  - a\n  -   b # note\n',
      'key:   \nother: 1\n',
      'nested:\n  deeper:\n    deepest: 007\n',
      'k: +12\nj: -0\nn: Null\nt: TRUE\nf: False\ns: yes\no: on\n',
      'dup: 1\ndup: 2\n',
      'q: "tab\\there"\nr: \'a # b\'\n',
      'block: |+\n  kept\n\n\nnext: 1\n',
      'flow: { a: b, c: "d" }\n',
      'matrix: [18, "20", true, null, ~, x]\n',
      'opts: {enabled: true, retries: 3, name: "7"}\n',
      'folded: >-\n  one\n  two\nclip: >\n  three\n',
      '---\nafter: start\n',
      '--- # a comment\nk: v\n',
      '---\na: 1\n---\nb: 2\n',
      'a: 1\n---\n',
      '---\n---\na: 1\n',
      '# head\n---\n- x\n---\nk: v\n',
      '---\n# c\n---\na: 1\n',
      'a: 1\n---\n# only a comment\n',
      'k:\n# c\n  x: 1\n',
      'a:\n  - b\n  # c\n  - d\n',
      'x: |\n  a\n# c\ny: 1\n',
      'services:\n  db:\n    depends_on:\n      -  mongo  \n      - A=b:1  # note\n',
      '- a\n- b: c\n  d: e\n',
      '# only a comment first\nk: v\n',
      'url: https://example.com:8443/path\n',
      'urls: [http://x.io, {u: "http://y"}]\n',
    ];
    for (const text of cases) expect(takenAndEqual(text), text).toBe(true);
  });

  it('leaves every text outside its subset to the library', () => {
    const outside = [
      'a: &anchor 1\nb: *anchor\n',
      'folded: >\n  one\n\n  two\n',
      'folded: >\n  one\n    more\n',
      'a: 1\n---\nk: v\n...\n',
      '--- {a: 1}\n',
      'version: 1.10\n',
      'hex: 0x1F\n',
      'octal: 0o17\n',
      'inf: .inf\n',
      'plain: first\n  continued\n',
      'flow: {1: a}\n',
      'k: [a: b]\n',
      'k: [a, b, ]\n',
      'k: [a, , b]\n',
      'k: [x #y]\n',
      'k: {a: b: c}\n',
      'multi: [a,\n  b]\n',
      'tagged: !!str 1\n',
      '\tk: v\n',
      'k: v: w\n',
      'indicator: |2\n    x\n',
      '- - nested\n',
      'seq:\n  -\n    a: 1\n',
      '? complex\n: key\n',
      'big: 12345678901234567890\n',
      'spaced : key\n',
      '\ufeffk: v\n',
    ];
    for (const text of outside) expect(readBlockYaml(text), text).toBeUndefined();
    // readYaml still reads each (through the library), errors included, and leaves the stack trace limit as it was.
    const limit = Error.stackTraceLimit;
    expect(readYaml('a: [1\n', 'x.yml').errors.length).toBeGreaterThan(0);
    expect(Error.stackTraceLimit).toBe(limit);
  });

  it('reads every YAML fixture it takes exactly as the library does, and takes the workflows', () => {
    const files = readdirSync(join(ROOT, 'test', 'fixtures'), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && /\.ya?ml$/.test(entry.name) && !entry.parentPath.includes('lockfiles'))
      .map((entry) => join(entry.parentPath, entry.name));
    let taken = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      if (!readBlockYaml(text)) continue;
      taken++;
      expect(shape(readYaml(text, file)), relative(ROOT, file)).toEqual(shape(readYamlWithLibrary(text, file)));
    }
    expect(files.length).toBeGreaterThan(20);
    expect(taken).toBeGreaterThan(files.length / 2);
    const workflows = files.filter((file) => file.includes('/.github/workflows/') && !file.includes('/bad/'));
    for (const file of workflows) expect(readBlockYaml(readFileSync(file, 'utf8')), file).toBeTruthy();
  });
});
