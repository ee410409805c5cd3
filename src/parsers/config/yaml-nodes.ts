// YAML read as nodes, so every value a config reader takes keeps its line (https://eemeli.org/yaml/#documents).
import type { Node } from 'yaml';
import type { InputProblem } from '../../model.js';
import { yamlLibrary } from '../../vendored.js';

/**
 * The yaml library, loaded by the first file read as YAML: a parser module that is loaded for a file it then leaves
 * alone (a Kubernetes reader meeting pnpm-workspace.yaml) costs nothing.
 */
const yaml = yamlLibrary;

export interface YamlText {
  /** The root node of each document (`---` separated); null for an empty document. */
  documents: Array<Node | null>;
  /** The 1-based line a node starts on. */
  lineOf(node: unknown): number | undefined;
  /** Syntax errors, one per document that has any. */
  errors: InputProblem[];
}

export function readYaml(text: string, file: string): YamlText {
  const lineCounter = new (yaml().LineCounter)();
  const parsed = yaml().parseAllDocuments(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
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

/** The value node under `key` of a mapping node, or undefined. */
export function child(node: unknown, key: string): Node | undefined {
  if (!yaml().isMap(node)) return undefined;
  for (const pair of node.items) {
    const name = yaml().isScalar(pair.key) ? pair.key.value : pair.key;
    if (String(name) === key) return (pair.value ?? undefined) as Node | undefined;
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
  if (!yaml().isScalar(node) || node.value === null || typeof node.value === 'object') return undefined;
  return String(node.value);
}

export function items(node: unknown): Node[] {
  return yaml().isSeq(node) ? (node.items as Node[]) : [];
}

export function entries(node: unknown): Array<[string, Node | undefined]> {
  if (!yaml().isMap(node)) return [];
  return node.items.map((pair) => [
    String(yaml().isScalar(pair.key) ? pair.key.value : pair.key),
    (pair.value ?? undefined) as Node | undefined,
  ]);
}

/** Every scalar string under a node, with its node (for hosts named anywhere in a job's commands). */
export function scalarsUnder(node: unknown, skipKeys: ReadonlySet<string> = new Set()): Node[] {
  const out: Node[] = [];
  const visit = (current: unknown) => {
    if (yaml().isScalar(current)) {
      if (typeof current.value === 'string') out.push(current);
    } else if (yaml().isMap(current)) {
      for (const pair of current.items) {
        const key = yaml().isScalar(pair.key) ? String(pair.key.value) : '';
        if (!skipKeys.has(key)) visit(pair.value);
      }
    } else if (yaml().isSeq(current)) for (const item of current.items) visit(item);
  };
  visit(node);
  return out;
}
