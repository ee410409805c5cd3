// composer.lock (https://getcomposer.org/doc/01-basic-usage.md#commit-your-composer-lock-file-to-version-control):
// `packages` and `packages-dev` arrays, each package with its `require` map. What the project requires itself is in
// composer.json next to it.
import { ParseError } from '../errors.js';
import { isRecord, parseJsonText } from '../json-text.js';
import type { InputProblem } from '../model.js';
import { dependenciesFromGraph, type EdgeType, type LockNode } from './lockfile/lock-graph.js';
import { assertNoConflictMarkers } from './lockfile/lock-text.js';
import { projectName, readBeside } from './packages/declared.js';
import { textLines } from './config/text-lines.js';
import { basename, type FileAccess, type Parser, type ParseResult } from './types.js';

const ROOT = '\u0000composer.json';
/** Platform requirements name the PHP runtime and its extensions, not packages. */
const PLATFORM = /^(php(-64bit|-ipv6|-zts|-debug)?|hhvm|ext-.+|lib-.+|composer(-plugin|-runtime)?-api|composer)$/i;

export function parseComposerLock(text: string, path: string, manifest?: string): ParseResult {
  assertNoConflictMarkers(text, path, 'composer update --lock rewrites a conflicted composer.lock');
  const lock = parseJsonText(text, path);
  if (!isRecord(lock) || !(Array.isArray(lock.packages) || Array.isArray(lock['packages-dev'])))
    throw new ParseError(path, 1, 'a composer.lock holds "packages" and "packages-dev" arrays; neither found');
  const errors: InputProblem[] = [];
  const nodes = new Map<string, LockNode>();
  const requires = new Map<string, string[]>();
  const lines = textLines(text);
  let from = 0;
  for (const section of ['packages', 'packages-dev'] as const) {
    const list = lock[section];
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      const at =
        isRecord(entry) && typeof entry.name === 'string'
          ? text.indexOf(`"name": ${JSON.stringify(entry.name)}`, from)
          : -1;
      if (at >= 0) from = at;
      const line = at >= 0 ? lines.lineAt(at) : undefined;
      if (!isRecord(entry) || typeof entry.name !== 'string') {
        errors.push({ file: path, line, message: `an entry of "${section}" has no name; skipped` });
        continue;
      }
      const id = entry.name.toLowerCase();
      nodes.set(id, {
        id,
        name: entry.name,
        ...(typeof entry.version === 'string' ? { version: entry.version } : {}),
        ...(line ? { line } : {}),
        edges: [],
        kind: section === 'packages-dev' ? 'dev' : 'prod',
      });
      requires.set(
        id,
        Object.keys(isRecord(entry.require) ? entry.require : {}).map((name) => name.toLowerCase()),
      );
    }
  }
  for (const [id, names] of requires)
    (nodes.get(id) as LockNode).edges = names.filter((name) => nodes.has(name)).map((to) => ({ to, type: 'prod' }));
  const declared = manifest === undefined ? undefined : declaredPackages(manifest, path, errors);
  const rootEdges = declared
    ? declared.packages.filter(({ name }) => nodes.has(name)).map(({ name, type }) => ({ to: name, type }))
    : rootsByIncoming(nodes);
  const rootName = declared?.name ?? projectName(path);
  nodes.set(ROOT, { id: ROOT, name: rootName, edges: rootEdges });
  return {
    ...dependenciesFromGraph({ nodes, roots: [{ id: ROOT, name: rootName }] }, path, 'composer'),
    errors,
  };
}

function declaredPackages(manifest: string, path: string, errors: InputProblem[]) {
  const manifestPath = path.replace(/[^\\/]*$/, 'composer.json');
  try {
    const json = parseJsonText(manifest, manifestPath);
    if (!isRecord(json)) return undefined;
    const packages: Array<{ name: string; type: EdgeType }> = [];
    for (const [key, type] of [
      ['require', 'prod'],
      ['require-dev', 'dev'],
    ] as const)
      for (const name of Object.keys(isRecord(json[key]) ? json[key] : {}))
        if (!PLATFORM.test(name)) packages.push({ name: name.toLowerCase(), type });
    return { name: typeof json.name === 'string' && json.name ? json.name : undefined, packages };
  } catch (error) {
    if (!(error instanceof ParseError)) throw error;
    errors.push({ file: error.file, line: error.line, message: `${error.message}; direct dependencies are guessed` });
    return undefined;
  }
}

/** Without composer.json, every package nothing else requires is taken as declared. */
function rootsByIncoming(nodes: Map<string, LockNode>) {
  const required = new Set<string>();
  for (const node of nodes.values()) for (const edge of node.edges) required.add(edge.to);
  return [...nodes.values()]
    .filter((node) => !required.has(node.id))
    .map((node) => ({ to: node.id, type: node.kind === 'dev' ? ('dev' as const) : ('prod' as const) }));
}

/** As the scan reads it: with the composer.json beside it, which says what the project requires. */
async function parseComposerLockInProject(text: string, path: string, files: FileAccess): Promise<ParseResult> {
  const problems: InputProblem[] = [];
  const result = parseComposerLock(text, path, await readBeside(files, path, 'composer.json', problems));
  return { ...result, errors: [...problems, ...result.errors] };
}

export const composerLockParser: Parser = {
  kind: 'composer.lock',
  matches: (path) => basename(path) === 'composer.lock',
  sniff: (text) => /^\s*\{/.test(text) && /"content-hash"\s*:/.test(text) && /"packages(-dev)?"\s*:/.test(text),
  parse: parseComposerLockInProject,
};
