// uv.lock (https://docs.astral.sh/uv/concepts/projects/layout/#the-lockfile), version 1: `[[package]]` tables whose
// `dependencies`, `optional-dependencies` and `dev-dependencies` name other packages; the project and its workspace
// members are packages too, with an editable, virtual or directory source.
import { ParseError } from '../errors.js';
import { isRecord } from '../json-text.js';
import type { InputProblem } from '../model.js';
import type { EdgeType } from './lockfile/lock-graph.js';
import { dependenciesFromGraph } from './lockfile/lock-graph.js';
import { assertNoConflictMarkers } from './lockfile/lock-text.js';
import { textLines } from './config/text-lines.js';
import { pythonLockGraph, type PythonPackage } from './packages/python-lock-graph.js';
import { readToml } from './config/toml.js';
import { basename, type FileAccess, type ParseOptions, type Parser, type ParseResult } from './types.js';

export function parseUvLock(text: string, path: string, _files?: FileAccess, options?: ParseOptions): ParseResult {
  assertNoConflictMarkers(text, path, 'uv lock rewrites a conflicted uv.lock');
  const toml = readToml(text, path);
  if (!Array.isArray(toml.package)) throw new ParseError(path, 1, 'a uv.lock lists [[package]] tables; none found');
  const lines = textLines(text);
  const errors: InputProblem[] = [];
  const packages: PythonPackage[] = [];
  const roots: Array<{ id: string; name: string }> = [];
  let from = 0;
  for (const entry of toml.package as unknown[]) {
    const at = lines.offset('[[package]]', from);
    from = at >= 0 ? at + 1 : from;
    const line = at >= 0 ? lines.lineAt(at) + 1 : undefined;
    if (!isRecord(entry) || typeof entry.name !== 'string') {
      errors.push({ file: path, line, message: '[[package]] without a name; skipped' });
      continue;
    }
    const edges: PythonPackage['edges'] = [];
    const addEdges = (list: unknown, type: EdgeType) => {
      if (!Array.isArray(list)) return;
      for (const item of list)
        if (isRecord(item) && typeof item.name === 'string')
          edges.push({ name: item.name, ...(typeof item.version === 'string' ? { version: item.version } : {}), type });
    };
    addEdges(entry.dependencies, 'prod');
    for (const list of Object.values(isRecord(entry['optional-dependencies']) ? entry['optional-dependencies'] : {}))
      addEdges(list, 'optional');
    for (const list of Object.values(isRecord(entry['dev-dependencies']) ? entry['dev-dependencies'] : {}))
      addEdges(list, 'dev');
    const id = `${entry.name}@${typeof entry.version === 'string' ? entry.version : ''}`;
    packages.push({
      id,
      name: entry.name,
      ...(typeof entry.version === 'string' ? { version: entry.version } : {}),
      ...(line ? { line } : {}),
      edges,
    });
    const source = isRecord(entry.source) ? entry.source : {};
    if ('editable' in source || 'virtual' in source || 'directory' in source) roots.push({ id, name: entry.name });
  }
  return { ...dependenciesFromGraph(pythonLockGraph(packages, roots), path, 'pypi', options), errors };
}

export const uvLockParser: Parser = {
  kind: 'uv.lock',
  matches: (path) => basename(path) === 'uv.lock',
  sniff: (text) => /^\[\[package\]\]/m.test(text) && /^requires-python = /m.test(text) && /^version = \d+/m.test(text),
  parse: parseUvLock,
  supersedes: ['pyproject.toml'],
};
