// Property: whenever the fast block reader takes a text, it reads it exactly as the yaml library does. The texts are
// built from the line shapes real workflows, compose files and manifests are made of, their edge cases included
// (typed scalars, quotes and escapes, flow collections with odd entries, comments, block scalars, documents), so the
// reader meets many texts just inside its subset and many just outside.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readBlockYaml } from '../../../src/parsers/config/yaml-block.js';
import { readingShape, readYaml, readYamlWithLibrary } from '../../../src/parsers/config/yaml-nodes.js';

const word = fc.constantFrom('a', 'name', 'runs-on', 'on', 'image', 'x_y', 'true', '1', '07', 'null', '~', 'k.v', 'é');
/** Plain values inside the reader's subset. */
const PLAIN_INSIDE = [
  'ubuntu-latest',
  'echo hi',
  'https://example.com:8443/x',
  '\u0024{{ env.A }}',
  '42',
  '-7',
  'True',
  'Null',
  '~',
  'yes',
  'v  ',
];
const plain = fc.constantFrom(
  ...PLAIN_INSIDE,
  '+3',
  '007',
  '1.5',
  '1e3',
  '.5',
  '0x1F',
  '0o7',
  '.inf',
  '.NaN',
  'FALSE',
  'a: b',
  'a:',
  'a #b',
  'a# b',
  'x\ty',
  '-',
  '- a',
  ':x',
  '@at',
  '*ref',
  '&anchor v',
  '!tag v',
  '?',
  '12345678901234567890',
);
const quoted = fc.constantFrom(
  '"a"',
  "'b'",
  '"a: b"',
  "'it''s'",
  '"tab\\t"',
  '"\\u00e9"',
  '""',
  "''",
  '"a # b"',
  '"x" y',
);
const flow = fc.constantFrom(
  '[]',
  '{}',
  '[a, b]',
  '[18, 20]',
  '[a: b]',
  '[a, , b]',
  '[a, b, ]',
  '[x #y]',
  '{a: 1, b: "c"}',
  '{a: b: c}',
  '[http://x.io]',
  '{1: a}',
  '[[a], {b: c}]',
  '[a',
  '[a] tail',
  '[a] # c',
);
const value = fc.oneof(plain, quoted, flow, fc.constantFrom('', ' # comment', '|', '|-', '|+', '>', '>-', '|2', '>\n'));
const comment = fc.constantFrom('', ' # note', '  #x');

/** One line at an indentation of 0–6 spaces: mostly nonsense, so the reader meets texts just outside its subset. */
const line = fc
  .tuple(
    fc.constantFrom(0, 0, 2, 2, 4, 6, 1, 3),
    fc.oneof(
      fc.tuple(word, value, comment).map(([key, v, c]) => `${key}:${v === '' ? '' : ` ${v}`}${c}`),
      fc.tuple(quoted, value).map(([key, v]) => `${key}: ${v}`),
      fc.tuple(word, value).map(([key, v]) => `- ${key}: ${v}`),
      value.map((v) => `- ${v}`),
      fc.constantFrom('-', '# comment', '', '   ', '---', '--- # doc', '...', 'text line', '  continued', '\tkey: v'),
    ),
  )
  .map(([indent, text]) => `${' '.repeat(indent)}${text}`);
const loose = fc.array(line, { minLength: 1, maxLength: 14 }).map((lines) => `${lines.join('\n')}\n`);

/** Well-formed block documents built as trees, with the same values: texts mostly inside the subset. */
type Tree = { map: Array<[string, Tree | string]> } | { seq: Array<Tree | string> };
// Mostly values inside the subset, so that most documents are taken; now and then any of the others.
const inside = fc.constantFrom(
  ...PLAIN_INSIDE,
  '"a: b"',
  "'it''s'",
  '[a, b]',
  '[18, "20", true]',
  '{a: 1, b: "c"}',
  '[]',
);
const scalarText = fc.oneof({ arbitrary: inside, weight: 6 }, plain, quoted, flow);
const { tree } = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ map: fc.array(fc.tuple(word, fc.oneof(scalarText, tie('tree'))), { minLength: 1, maxLength: 4 }) }),
    fc.record({ seq: fc.array(fc.oneof(scalarText, tie('tree')), { minLength: 1, maxLength: 3 }) }),
  ),
}));
const blockScalar = fc.tuple(
  fc.constantFrom('|', '|-', '|+', '>', '>-'),
  fc.constantFrom(['a'], ['a', 'b'], ['a', '', 'b'], ['a', '  b']),
);

function render(node: Tree, indent: number, out: string[], block: [string, string[]] | undefined): void {
  const pad = ' '.repeat(indent);
  if ('map' in node) {
    for (const [key, child] of node.map) {
      if (typeof child === 'string') out.push(`${pad}${key}: ${child}`);
      else {
        out.push(`${pad}${key}:`);
        // A sequence may sit at its key's own indent.
        render(child, 'seq' in child && key.length % 2 === 0 ? indent : indent + 2, out, block);
      }
    }
    if (block) {
      out.push(`${pad}text: ${block[0]}`);
      for (const text of block[1]) out.push(text === '' ? '' : `${pad}  ${text}`);
    }
    return;
  }
  for (const item of node.seq) {
    if (typeof item === 'string') out.push(`${pad}- ${item}`);
    else if ('map' in item) {
      // `- key: value` and the item's other keys at the column of its first.
      const lines: string[] = [];
      render(item, indent + 2, lines, undefined);
      out.push(`${pad}- ${(lines[0] as string).trimStart()}`, ...lines.slice(1));
    } else {
      out.push(`${pad}-`);
      render(item, indent + 2, out, undefined);
    }
  }
}

const documents = fc
  .tuple(
    fc.array(fc.tuple(tree, fc.option(blockScalar, { nil: undefined })), { minLength: 1, maxLength: 3 }),
    fc.boolean(),
  )
  .map(([docs, marker]) => {
    const out: string[] = [];
    docs.forEach(([root, block], i) => {
      if (i > 0 || marker) out.push('---');
      render(root, 0, out, block);
    });
    return `${out.join('\n')}\n`;
  });

describe('the fast block YAML reader, on generated texts', () => {
  it('reads every text it takes exactly as the yaml library does', () => {
    let taken = 0;
    fc.assert(
      fc.property(fc.oneof(loose, documents), (text) => {
        if (!readBlockYaml(text)) return;
        taken++;
        expect(readingShape(readYaml(text, 'x.yml'))).toEqual(readingShape(readYamlWithLibrary(text, 'x.yml')));
      }),
      { numRuns: 4000, seed: 20261203 },
    );
    // The property says something only if the reader takes a fair share of the texts.
    expect(taken).toBeGreaterThan(300);
  });
});
