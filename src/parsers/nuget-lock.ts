// packages.lock.json (https://learn.microsoft.com/nuget/consume-packages/package-references-in-project-files#locking-dependencies),
// versions 1 and 2: per target framework, every package with its `type` (Direct, Transitive, Project,
// CentralTransitive) and the packages it depends on.
import { ParseError } from '../errors.js';
import { isRecord, parseJsonText } from '../json-text.js';
import type { InputProblem } from '../model.js';
import { dependenciesFromGraph, type LockNode } from './lockfile/lock-graph.js';
import { assertNoConflictMarkers } from './lockfile/lock-text.js';
import { projectName } from './packages/declared.js';
import { textLines } from './config/text-lines.js';
import { basename, type Parser, type ParseResult } from './types.js';

const ROOT = '\u0000project';

export function parseNugetLock(text: string, path: string): ParseResult {
  assertNoConflictMarkers(text, path, 'dotnet restore --force-evaluate rewrites a conflicted packages.lock.json');
  const lock = parseJsonText(text, path);
  if (!isRecord(lock) || !isRecord(lock.dependencies))
    throw new ParseError(path, 1, 'a packages.lock.json holds "dependencies" per target framework; none found');
  const lines = textLines(text);
  const errors: InputProblem[] = [];
  const nodes = new Map<string, LockNode>();
  const root: LockNode = { id: ROOT, name: projectName(path), edges: [] };
  const direct = new Set<string>();
  const pending = new Map<string, string[]>();
  for (const [framework, packages] of Object.entries(lock.dependencies)) {
    const frameworkAt = Math.max(0, lines.offset(JSON.stringify(framework)));
    if (!isRecord(packages)) {
      errors.push({
        file: path,
        line: lines.find(JSON.stringify(framework)),
        message: `"${framework}" must be an object; skipped`,
      });
      continue;
    }
    // Every target framework resolves the same references; the union is what the project uses. Packages are read in
    // the order they are written, so each search starts where the last one ended.
    let cursor = frameworkAt;
    for (const [name, entry] of Object.entries(packages)) {
      if (!isRecord(entry)) continue;
      const id = name.toLowerCase();
      const at = lines.offset(`${JSON.stringify(name)}: {`, cursor);
      if (at >= 0) cursor = at + 1;
      if (!nodes.has(id)) {
        const line = at >= 0 ? lines.lineAt(at) : undefined;
        const version = typeof entry.resolved === 'string' ? entry.resolved : undefined;
        nodes.set(id, { id, name, ...(version ? { version } : {}), ...(line ? { line } : {}), edges: [] });
      }
      if (entry.type === 'Direct' || entry.type === 'Project') direct.add(id);
      const targets = Object.keys(isRecord(entry.dependencies) ? entry.dependencies : {}).map((target) =>
        target.toLowerCase(),
      );
      pending.set(id, [...new Set([...(pending.get(id) ?? []), ...targets])]);
    }
  }
  for (const [id, targets] of pending)
    (nodes.get(id) as LockNode).edges = targets
      .filter((target) => nodes.has(target))
      .map((to) => ({ to, type: 'prod' }));
  root.edges = [...direct].map((to) => ({ to, type: 'prod' }));
  nodes.set(ROOT, root);
  return {
    ...dependenciesFromGraph({ nodes, roots: [{ id: ROOT, name: root.name }] }, path, 'nuget'),
    errors,
  };
}

export const nugetLockParser: Parser = {
  kind: 'packages.lock.json',
  matches: (path) => basename(path) === 'packages.lock.json',
  sniff: (text) => /^\s*\{/.test(text) && /"version"\s*:\s*[12]\s*,/.test(text) && /"(Direct|Transitive)"/.test(text),
  parse: parseNugetLock,
};
