// YAML read as nodes, so every value a config reader takes keeps its line (https://eemeli.org/yaml/#documents). A file
// inside the subset of yaml-block.ts is read by that reader; any other by the yaml library. Both give nodes of the same
// shape, told apart by the library's registered identity symbols, so the helpers below never need the library itself.
import type { Node, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import type { InputProblem } from '../../model.js';
import { yamlLibrary } from '../../vendored.js';
import { readBlockYaml } from './yaml-block.js';

export interface YamlText {
  /** The root node of each document (`---` separated); null for an empty document. */
  documents: Array<Node | null>;
  /** The 1-based line a node starts on. */
  lineOf(node: unknown): number | undefined;
  /** Syntax errors, one per document that has any. */
  errors: InputProblem[];
}

export function readYaml(text: string, file: string): YamlText {
  const documents = readBlockYaml(text);
  if (!documents) return readYamlWithLibrary(text, file);
  return {
    documents: documents as unknown as Node[],
    lineOf: (node) => (node as { line?: number } | null | undefined)?.line,
    errors: [],
  };
}

/**
 * The yaml library's reading, loaded by the first file the fast reader leaves to it: a parser module that is loaded
 * for a file it then leaves alone (a Kubernetes reader meeting pnpm-workspace.yaml) costs nothing.
 */
export function readYamlWithLibrary(text: string, file: string): YamlText {
  const yaml = yamlLibrary();
  const lineCounter = new yaml.LineCounter();
  // The library's errors are read for their message and position, never their stack: a Helm template is hundreds of
  // them, each of which captured a stack for nothing.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  let parsed: ReturnType<typeof yaml.parseAllDocuments>;
  try {
    parsed = yaml.parseAllDocuments(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
  const documents = Array.isArray(parsed) ? parsed : [];
  const errors: InputProblem[] = [];
  for (const document of documents) {
    const first = document.errors[0];
    if (first)
      errors.push({
        file,
        line: lineCounter.linePos(first.pos[0]).line,
        message: `not valid YAML: ${first.message.split('\n')[0]}`,
      });
  }
  return {
    documents: documents.map((document) => (document.errors.length > 0 ? null : (document.contents as Node | null))),
    lineOf: (node) => {
      const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
      return range ? lineCounter.linePos(range[0]).line : undefined;
    },
    errors,
  };
}

// The library's node identity (yaml/dist/nodes/identity.js): registered symbols, the same in every copy of it.
const NODE_TYPE = Symbol.for('yaml.node.type');
const kindIs =
  <T>(kind: symbol) =>
  (node: unknown): node is T =>
    typeof node === 'object' && node !== null && (node as Record<symbol, unknown>)[NODE_TYPE] === kind;
export const isMap = kindIs<YAMLMap<unknown, unknown>>(Symbol.for('yaml.map'));
export const isSeq = kindIs<YAMLSeq<unknown>>(Symbol.for('yaml.seq'));
export const isScalar = kindIs<Scalar<unknown>>(Symbol.for('yaml.scalar'));

/**
 * A reading as plain data, every node with its kind, value (typed) and line, keys and order kept: what the fast
 * reader's proofs compare with the library's reading (test/parsers/config/yaml-block.test.ts, bench/yaml.js).
 */
export function readingShape(yaml: YamlText): unknown {
  const node = (current: unknown): unknown => {
    if (current === null || current === undefined) return null;
    const line = yaml.lineOf(current);
    if (isScalar(current)) return { scalar: current.value, line };
    if (isMap(current)) return { map: current.items.map((pair) => [node(pair.key), node(pair.value)]), line };
    if (isSeq(current)) return { seq: current.items.map(node), line };
    return { unknown: String(current) };
  };
  return { documents: yaml.documents.map(node), errors: yaml.errors };
}

/** A mapping key as text (`200:` is "200"). */
function keyText(key: unknown): string {
  return String(isScalar(key) ? key.value : key);
}

/** A node as plain data (mappings as objects, sequences as arrays), for a message about an unexpected value. */
export function plainData(node: unknown): unknown {
  if (isScalar(node)) return node.value;
  if (isSeq(node)) return node.items.map(plainData);
  if (isMap(node)) return Object.fromEntries(node.items.map((pair) => [keyText(pair.key), plainData(pair.value)]));
  return node ?? null;
}

/** The value node under `key` of a mapping node, or undefined. */
export function child(node: unknown, key: string): Node | undefined {
  if (!isMap(node)) return undefined;
  for (const pair of node.items) {
    if (keyText(pair.key) === key) return (pair.value ?? undefined) as Node | undefined;
  }
  return undefined;
}

/** Follows a path of keys through mappings. */
export function childAt(node: unknown, ...keys: string[]): Node | undefined {
  let current: unknown = node;
  for (const key of keys) current = child(current, key);
  return current as Node | undefined;
}

/** A scalar node's value as a string (numbers and booleans as written), or undefined. */
export function text(node: unknown): string | undefined {
  if (!isScalar(node) || node.value === null || typeof node.value === 'object') return undefined;
  return String(node.value);
}

export function items(node: unknown): Node[] {
  return isSeq(node) ? (node.items as Node[]) : [];
}

export function entries(node: unknown): Array<[string, Node | undefined]> {
  if (!isMap(node)) return [];
  return node.items.map((pair) => [keyText(pair.key), (pair.value ?? undefined) as Node | undefined]);
}

/** Every scalar string under a node, with its node (for hosts named anywhere in a job's commands). */
export function scalarsUnder(node: unknown, skipKeys: ReadonlySet<string> = new Set()): Node[] {
  const out: Node[] = [];
  const visit = (current: unknown) => {
    if (isScalar(current)) {
      if (typeof current.value === 'string') out.push(current);
    } else if (isMap(current)) {
      for (const pair of current.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : '';
        if (!skipKeys.has(key)) visit(pair.value);
      }
    } else if (isSeq(current)) for (const item of current.items) visit(item);
  };
  visit(node);
  return out;
}
