// A fast reader for the block YAML that CI workflows, compose files and manifests are mostly written in: documents
// separated by `---`, block mappings and sequences (of scalars and of mappings), one-line plain, quoted and flow
// values, literal and simple folded block scalars. The yaml library reads 14 workflow files (21 KB) in 35–45 ms on
// its first use, most of it running its code before the engine has optimized any; this reads them in a few. It gives
// nodes shaped like the library's (the same registered identity symbols, `items`, `key`, `value`), so the readers in
// yaml-nodes.ts take either; anything outside the subset (anchors, tags, `...` and directives, folded scalars with
// blank or more-indented lines, multi-line plain or flow values, a plain scalar YAML would read as a float) returns
// undefined and the library reads the file. test/parsers/config/yaml-block.test.ts and `npm run bench yaml` prove
// both readers give the same nodes on every file this reader takes.
import {
  ContentLines,
  closingQuote,
  type FastMap,
  type FastValue,
  parseFlow,
  splitKey,
  Unsupported,
  unquote,
} from '../lockfile/yaml-fast.js';

const NODE_TYPE = Symbol.for('yaml.node.type');
const MAP = Symbol.for('yaml.map');
const SEQ = Symbol.for('yaml.seq');
const SCALAR = Symbol.for('yaml.scalar');
const PAIR = Symbol.for('yaml.pair');

export interface BlockScalar {
  [NODE_TYPE]: symbol;
  value: string | number | boolean | null;
  line: number;
}
export interface BlockPair {
  [NODE_TYPE]: symbol;
  key: BlockScalar;
  value: BlockNode | null;
}
export interface BlockMap {
  [NODE_TYPE]: symbol;
  items: BlockPair[];
  line: number;
}
export interface BlockSeq {
  [NODE_TYPE]: symbol;
  items: BlockNode[];
  line: number;
}
export type BlockNode = BlockScalar | BlockMap | BlockSeq;

const scalar = (value: BlockScalar['value'], line: number): BlockScalar => ({ [NODE_TYPE]: SCALAR, value, line });
const mapNode = (line: number): BlockMap => ({ [NODE_TYPE]: MAP, items: [], line });
const seqNode = (line: number): BlockSeq => ({ [NODE_TYPE]: SEQ, items: [], line });

/**
 * The root node of each document (`---` separated; a null scalar for one without content, as the library gives), or
 * undefined when the text leaves the subset or holds no document at all.
 */
export function readBlockYaml(text: string): BlockNode[] | undefined {
  try {
    const documents = read(text);
    return documents.length > 0 ? documents : undefined;
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

interface Container {
  indent: number;
  node: BlockMap | BlockSeq;
}

/** A `key:` with nothing after it: its value is the block below, or null. */
interface Open {
  pair: BlockPair;
  indent: number;
  line: number;
}

function read(text: string): BlockNode[] {
  // A byte order mark is the library's to strip.
  if (text.charCodeAt(0) === 0xfeff) throw new Unsupported();
  const documents: BlockNode[] = [];
  let root: BlockNode | null = null;
  let stack: Container[] = [];
  let open: Open | undefined;
  // Whether a document has begun: with content, or with the `---` that opens it (on `marker`).
  let started = false;
  let marker = 0;
  // A document with no content is a null scalar on its `---` line, as the library has it.
  const finish = () => documents.push(root ?? scalar(null, marker));
  const lines = new ContentLines(text);
  while (lines.next()) {
    const { line, indent, number: lineNumber } = lines;
    const first = line.charCodeAt(indent);
    if (first === 9 /* tab */) throw new Unsupported();
    if (indent === 0 && /^(---|\.\.\.|%)/.test(line)) {
      // `---` ends the document before it (if one began) and opens the next; content on the marker's line, `...` and
      // directives are left to the library.
      if (!/^---\s*(#.*)?$/.test(line)) throw new Unsupported();
      if (open) open.pair.value = scalar(null, open.line);
      if (started) finish();
      root = null;
      stack = [];
      open = undefined;
      started = true;
      marker = lineNumber;
      continue;
    }
    started = true;
    const item = first === 45 /* - */ && (line.charCodeAt(indent + 1) === 32 || indent + 1 === line.length);

    if (open) {
      let child: BlockMap | BlockSeq | undefined;
      // A sequence may sit at its key's own indent.
      if (item && indent >= open.indent) child = seqNode(lineNumber);
      else if (indent > open.indent) child = mapNode(lineNumber);
      open.pair.value = child ?? scalar(null, open.line);
      if (child) stack.push({ indent, node: child });
      open = undefined;
    } else if (root === null) {
      root = item ? seqNode(lineNumber) : mapNode(lineNumber);
      if (indent !== 0) throw new Unsupported();
      stack.push({ indent, node: root });
    }
    // Leave the containers this line is not inside; a sequence at its key's indent ends at the next key there.
    for (;;) {
      const top = stack.at(-1);
      if (!top) throw new Unsupported();
      if (top.indent > indent || (top.indent === indent && top.node[NODE_TYPE] === SEQ && !item)) stack.pop();
      else break;
    }
    const top = stack.at(-1) as Container;
    // Deeper than its container without a `key:` to open it: a continuation line, outside the subset.
    if (top.indent !== indent) throw new Unsupported();

    if (item) {
      if (top.node[NODE_TYPE] !== SEQ) throw new Unsupported();
      const seq = top.node as BlockSeq;
      let column = indent + 1;
      while (line.charCodeAt(column) === 32) column++;
      const rest = line.slice(column);
      if (rest === '' || rest.startsWith('#') || /^-( |$)/.test(rest)) throw new Unsupported();
      if (isKeyed(rest)) {
        // `- key: value`: a mapping whose keys sit at the column of its first one.
        const map = mapNode(lineNumber);
        seq.items.push(map);
        stack.push({ indent: column, node: map });
        open = mapEntry(map, lines, column);
      } else seq.items.push(valueNode(rest, lineNumber));
      continue;
    }
    if (top.node[NODE_TYPE] !== MAP) throw new Unsupported();
    open = mapEntry(top.node as BlockMap, lines, indent);
  }
  if (open) open.pair.value = scalar(null, open.line);
  if (started) finish();
  return documents;
}

/** A line (or the rest of a `- ` item) that opens with `key:`. */
function isKeyed(rest: string): boolean {
  return /^("[^"]*"|'[^']*'|[^'"\s#][^'"]*?):( |$)/.test(rest);
}

/**
 * One `key: value` of `map`, the key at `column` of the current line; a block scalar below it is read here too. Returns
 * the pair when its value is the block below (`key:` alone).
 */
function mapEntry(map: BlockMap, lines: ContentLines, column: number): Open | undefined {
  const lineNumber = lines.number;
  const { key, rest } = typedKey(lines.line, column);
  const pair: BlockPair = { [NODE_TYPE]: PAIR, key: scalar(key, lineNumber), value: null };
  map.items.push(pair);
  if (rest === '' || rest.startsWith('#')) return { pair, indent: column, line: lineNumber };
  const block = /^([|>])([-+]?)(\s+#.*)?$/.exec(rest);
  pair.value = block
    ? scalar(lines.block(column, block[2] as string, block[1] === '>'), lineNumber)
    : valueNode(rest, lineNumber);
  return undefined;
}

/** `key: rest` with the key plain or quoted, as YAML reads it (a plain key is typed like any plain scalar). */
function typedKey(line: string, column: number): { key: string | number | boolean | null; rest: string } {
  const { key, rest, quoted } = splitKey(line, column);
  return { key: quoted ? key : typed(key), rest };
}

/** A value written on its key's line (or a `- ` item's): quoted, flow or plain. */
function valueNode(rest: string, line: number): BlockNode {
  const first = rest[0];
  if (first === '{' || first === '[') {
    const { value, end } = parseFlow(rest, 0, line, 0, typed);
    const tail = rest.slice(end).trim();
    if (tail !== '' && !tail.startsWith('#')) throw new Unsupported();
    return flowNode(value, line);
  }
  if (first === '"' || first === "'") {
    const close = closingQuote(rest, 0);
    const tail = rest.slice(close + 1).trim();
    if (tail !== '' && !tail.startsWith('#')) throw new Unsupported();
    return scalar(unquote(rest.slice(0, close + 1)), line);
  }
  if (/^([&*!|>%@`?]|[-:]( |$))/.test(rest)) throw new Unsupported();
  // A comment, and the spaces before it or at the end of the line, are not part of a plain scalar.
  const comment = rest.search(/\s#/);
  const plain = (comment >= 0 ? rest.slice(0, comment) : rest).trimEnd();
  // `a: b` inside a plain value is an error for YAML; a tab is whitespace it trims differently.
  if (plain.includes(': ') || plain.endsWith(':') || plain.includes('\t')) throw new Unsupported();
  return scalar(typed(plain), line);
}

/**
 * A flow collection as the lockfile reader's flow parser reads it, its values typed (`[18, 20]`); its keys are text
 * there, so a key YAML would type (`{ 1: a }`) is left to the library.
 */
function flowNode(value: FastValue, line: number): BlockNode {
  if (value instanceof Map) {
    const map = mapNode(line);
    for (const [key, entry] of value as FastMap) {
      if (typed(key) !== key) throw new Unsupported();
      map.items.push({ [NODE_TYPE]: PAIR, key: scalar(key, line), value: flowNode(entry.value, line) });
    }
    return map;
  }
  if (Array.isArray(value)) {
    const seq = seqNode(line);
    for (const item of value) seq.items.push(flowNode(item, line));
    return seq;
  }
  return scalar(value, line);
}

/**
 * A plain scalar as the yaml library's default (core) schema reads it: null, a boolean, a decimal integer, or text.
 * Floats, octal and hexadecimal integers, infinities and NaN are left to the library.
 */
function typed(text: string): string | number | boolean | null {
  switch (text) {
    case '':
    case '~':
    case 'null':
    case 'Null':
    case 'NULL':
      return null;
    case 'true':
    case 'True':
    case 'TRUE':
      return true;
    case 'false':
    case 'False':
    case 'FALSE':
      return false;
  }
  const code = text.charCodeAt(0);
  // Only a text that starts like a number can be one.
  if ((code >= 48 && code <= 57) || code === 43 || code === 45 || code === 46) {
    if (/^[-+]?[0-9]+$/.test(text)) {
      const number = Number(text);
      if (!Number.isSafeInteger(number)) throw new Unsupported();
      return number;
    }
    if (
      /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$|^0[ox]|^[-+]?\.(inf|Inf|INF)$|^\.(nan|NaN|NAN)$/.test(text)
    )
      throw new Unsupported();
  }
  return text;
}
