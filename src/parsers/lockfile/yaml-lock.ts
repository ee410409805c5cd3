// Reading the YAML lockfiles (pnpm, yarn berry): the fast subset reader when the file stays inside it, else
// the yaml library's document nodes. Neither converts to plain objects, so a `__proto__` key is only ever a
// Map key; duplicate keys are errors.
import type { Document, Node } from 'yaml';
import { ParseError } from '../../errors.js';
import { lineLocator } from '../../line-locator.js';
import { yamlLibrary } from '../../vendored.js';
import { type FastMap, type FastValue, InlineEntry, readFastYaml, Unsupported } from './yaml-fast.js';

export interface YamlEntry {
  key: string;
  value: unknown;
  line: number;
}

export interface YamlLock {
  root: unknown;
  /** The entries of a mapping node, keys as strings, with their line. */
  entries(node: unknown): YamlEntry[];
  /** A scalar's text, or undefined for anything else. */
  scalar(node: unknown): string | undefined;
  get(node: unknown, key: string): unknown;
}

export function readYamlLock(text: string, path: string, options: { fast?: boolean } = {}): YamlLock {
  const fast = options.fast === false ? undefined : readFastYaml(text, { flows: 'when-read' });
  return fast ? fastLock(fast, path) : fullLock(text, path);
}

function fastLock(root: FastMap, path: string): YamlLock {
  const scalar = (node: unknown) => (typeof node === 'string' ? node : undefined);
  // Flow values the fast reader left to the library, once read.
  const outside = new Map<InlineEntry, FastValue>();
  const valueIn = (entry: { value: FastValue; line: number }): FastValue => {
    if (!(entry instanceof InlineEntry)) return entry.value;
    try {
      return entry.value;
    } catch (error) {
      if (!(error instanceof Unsupported)) throw error;
      if (!outside.has(entry)) outside.set(entry, libraryValue(entry, path));
      return outside.get(entry) as FastValue;
    }
  };
  return {
    root,
    scalar,
    entries(node) {
      const out: YamlEntry[] = [];
      if (node instanceof Map)
        for (const [key, entry] of node as FastMap) out.push({ key, value: valueIn(entry), line: entry.line });
      return out;
    },
    get(node, key) {
      const entry = node instanceof Map ? (node as FastMap).get(key) : undefined;
      return entry && valueIn(entry);
    },
  };
}

/**
 * A flow value the fast reader does not read (an escape JSON lacks, a float, a tag inside it…), read by the yaml
 * library where it stands, after its key, and given in the fast reader's shapes: text or null, Map, array. Nothing in
 * it refers to the rest of the text: a flow with `&` or `*` in it was read with the text (yaml-fast.ts).
 */
function libraryValue(entry: InlineEntry, path: string): FastValue {
  const { isMap, isScalar, isSeq, parseDocument } = yamlLibrary();
  const doc = parseDocument(`key: ${entry.text}`, { uniqueKeys: true, keepSourceTokens: false, strict: true });
  const first = doc.errors[0];
  if (first) throw new ParseError(path, entry.line, `invalid YAML: ${first.message.split('\n')[0]}`);
  const text = (node: unknown) =>
    isScalar(node) && node.value !== null && node.value !== undefined ? String(node.value) : undefined;
  const convert = (node: unknown): FastValue => {
    if (isMap(node)) {
      const map: FastMap = new Map();
      for (const pair of node.items) {
        const key = text(pair.key);
        if (key !== undefined) map.set(key, { value: convert(pair.value), line: entry.line });
      }
      return map;
    }
    if (isSeq(node)) return node.items.map(convert);
    return text(node) ?? null;
  };
  const [pair] = isMap(doc.contents) ? doc.contents.items : [];
  return convert(pair?.value);
}

function fullLock(text: string, path: string): YamlLock {
  // The yaml library, loaded only for a lockfile outside the fast reader's subset: real ones stay inside it.
  const { isMap, isScalar, parseDocument } = yamlLibrary();
  let doc: Document;
  try {
    doc = parseDocument(text, { uniqueKeys: true, keepSourceTokens: false, strict: true });
  } catch (error) {
    throw new ParseError(path, undefined, `invalid YAML: ${(error as Error).message}`);
  }
  const first = doc.errors[0];
  if (first?.code === 'RESOURCE_EXHAUSTION')
    throw new ParseError(path, first.linePos?.[0]?.line, 'nested too deeply to read (far deeper than any lockfile)');
  if (first) throw new ParseError(path, first.linePos?.[0]?.line, `invalid YAML: ${first.message.split('\n')[0]}`);
  const lineAt = lineLocator(text);
  const scalar = (node: unknown) =>
    isScalar(node) && node.value !== null && node.value !== undefined ? String(node.value) : undefined;
  return {
    root: doc.contents,
    scalar,
    entries(node) {
      if (!isMap(node)) return [];
      const out: YamlEntry[] = [];
      for (const pair of node.items) {
        const key = scalar(pair.key);
        if (key === undefined) continue;
        out.push({ key, value: pair.value, line: lineAt((pair.key as Node).range?.[0] ?? 0) });
      }
      return out;
    },
    get(node, key) {
      if (!isMap(node)) return undefined;
      for (const pair of node.items) if (scalar(pair.key) === key) return pair.value;
      return undefined;
    },
  };
}
