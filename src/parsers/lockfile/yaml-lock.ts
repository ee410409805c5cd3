// Reading the YAML lockfiles (pnpm, yarn berry): the fast subset reader when the file stays inside it, else
// the yaml library's document nodes. Neither converts to plain objects, so a `__proto__` key is only ever a
// Map key; duplicate keys are errors.
import type { Document, Node } from 'yaml';
import { ParseError } from '../../errors.js';
import { lineLocator } from '../../line-locator.js';
import { yamlLibrary } from '../../vendored.js';
import { readFastYaml, type FastMap } from './yaml-fast.js';

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
  const fast = options.fast === false ? undefined : readFastYaml(text);
  return fast ? fastLock(fast) : fullLock(text, path);
}

function fastLock(root: FastMap): YamlLock {
  const scalar = (node: unknown) => (typeof node === 'string' ? node : undefined);
  return {
    root,
    scalar,
    entries: (node) =>
      node instanceof Map
        ? [...(node as FastMap)].map(([key, entry]) => ({ key, value: entry.value, line: entry.line }))
        : [],
    get: (node, key) => (node instanceof Map ? (node as FastMap).get(key)?.value : undefined),
  };
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
