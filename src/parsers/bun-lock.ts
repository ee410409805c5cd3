// bun.lock, bun's text lockfile (JSONC): https://bun.sh/docs/install/lockfile
// `packages` keys are install paths (`name`, or `parent/name` when nested), resolved like node_modules.
import { ParseError } from '../errors.js';
import { isRecord } from '../json-text.js';
import type { InputProblem } from '../model.js';
import {
  dependenciesFromGraph,
  type EdgeType,
  type LockEdge,
  type LockNode,
  type LockRoot,
} from './lockfile/lock-graph.js';
import { parseJsoncText } from './lockfile/jsonc-text.js';
import { assertNoConflictMarkers, dirName } from './lockfile/lock-text.js';
import { basename, type FileAccess, inScope, type Parser, type ParseResult, type ParseOptions } from './types.js';

const FIX = 'bun install rewrites a conflicted bun.lock';
const KNOWN_VERSIONS = new Set([0, 1, 2]);
const PACKAGE_SECTIONS: Array<[string, EdgeType]> = [
  ['dependencies', 'prod'],
  ['optionalDependencies', 'optional'],
  ['peerDependencies', 'peer'],
];
const WORKSPACE_SECTIONS: Array<[string, EdgeType]> = [...PACKAGE_SECTIONS, ['devDependencies', 'dev']];
const rootId = (dir: string) => `workspace:${dir}`;

export function parseBunLock(text: string, path: string, _files?: FileAccess, options: ParseOptions = {}): ParseResult {
  const errors: InputProblem[] = [];
  let parsed: ReturnType<typeof parseJsoncText>;
  try {
    parsed = parseJsoncText(text, path, errors);
  } catch (error) {
    // Conflict markers are never valid JSONC: looked for only once the parse failed, to name the real cause.
    assertNoConflictMarkers(text, path, FIX);
    throw error;
  }
  const { value: lock, lines } = parsed;
  if (!isRecord(lock)) throw new ParseError(path, 1, 'bun.lock must hold a JSON object');
  if (!KNOWN_VERSIONS.has(lock.lockfileVersion as number)) {
    errors.push({
      file: path,
      line: lines.get(lock)?.get('lockfileVersion') ?? 1,
      message: `lockfileVersion ${JSON.stringify(lock.lockfileVersion)} is not one downstack knows (0 to 2); read as the latest`,
    });
  }
  const workspaces = isRecord(lock.workspaces) ? lock.workspaces : undefined;
  const packages = isRecord(lock.packages) ? lock.packages : undefined;
  if (!workspaces || !packages) throw new ParseError(path, 1, 'bun.lock needs "workspaces" and "packages"');
  const packageLines = lines.get(packages) ?? new Map<string, number>();

  // Which package keys are workspace links, and to which workspace directory.
  const workspaceKeys = new Map<string, string>();
  for (const [key, entry] of Object.entries(packages)) {
    const ident = Array.isArray(entry) && typeof entry[0] === 'string' ? entry[0] : undefined;
    const at = ident?.indexOf('@workspace:', 1) ?? -1;
    if (ident && at > 0) workspaceKeys.set(key, ident.slice(at + '@workspace:'.length));
  }
  const resolve = (from: string, name: string): string | undefined => {
    for (let scope = from; ; scope = parentKey(scope)) {
      const key = scope === '' ? name : `${scope}/${name}`;
      if (Object.hasOwn(packages, key)) {
        const dir = workspaceKeys.get(key);
        return dir === undefined ? key : rootId(dir);
      }
      if (scope === '') return undefined;
    }
  };
  const edgesOf = (meta: unknown, from: string, sections: Array<[string, EdgeType]>): LockEdge[] => {
    const edges: LockEdge[] = [];
    if (!isRecord(meta)) return edges;
    for (const [section, type] of sections) {
      const deps = meta[section];
      if (!isRecord(deps)) continue;
      for (const name of Object.keys(deps)) {
        const to = resolve(from, name);
        if (to !== undefined) edges.push({ to, type });
      }
    }
    return edges;
  };

  const nodes = new Map<string, LockNode>();
  const roots: LockRoot[] = [];
  for (const [dir, manifest] of Object.entries(workspaces)) {
    const name =
      isRecord(manifest) && typeof manifest.name === 'string' && manifest.name !== ''
        ? manifest.name
        : dir === ''
          ? dirName(path)
          : dir;
    // Packages a workspace needs in a version of its own are nested under the workspace's name.
    nodes.set(rootId(dir), {
      id: rootId(dir),
      name,
      edges: edgesOf(manifest, dir === '' ? '' : name, WORKSPACE_SECTIONS),
    });
    roots.push({ id: rootId(dir), name, dir: dir || '.' });
  }
  for (const [key, entry] of Object.entries(packages)) {
    if (workspaceKeys.has(key) || !Array.isArray(entry) || typeof entry[0] !== 'string') continue;
    const ident = entry[0];
    const at = ident.indexOf('@', 1);
    const meta = entry.find((item, index) => index > 0 && isRecord(item));
    const line = packageLines.get(key);
    nodes.set(key, {
      id: key,
      name: at > 0 ? ident.slice(0, at) : ident,
      ...(at > 0 ? { version: ident.slice(at + 1) } : {}),
      ...(line !== undefined ? { line } : {}),
      edges: edgesOf(meta, key, PACKAGE_SECTIONS),
    });
  }
  roots.sort((a, b) => (a.id === rootId('') ? -1 : b.id === rootId('') ? 1 : a.id < b.id ? -1 : 1));
  return {
    ...dependenciesFromGraph({ nodes, roots }, path, 'npm', options),
    errors,
    projectDirs: Object.keys(workspaces)
      .map((dir) => dir || '.')
      .filter((dir) => !options.scope || inScope(dir, options.scope)),
    ownPackages: roots.map((root) => root.name),
  };
}

/** `a/@s/b/c` → `a/@s/b`: drops the last package name (a scoped name is two segments). */
function parentKey(key: string): string {
  const parts = key.split('/');
  const names: string[] = [];
  for (let i = 0; i < parts.length; i++)
    names.push(parts[i]?.startsWith('@') && i + 1 < parts.length ? `${parts[i]}/${parts[++i]}` : (parts[i] as string));
  return names.slice(0, -1).join('/');
}

export const bunLockParser: Parser = {
  kind: 'bun-lock',
  matches: (path) => basename(path) === 'bun.lock',
  sniff: (text) =>
    /^\s*\{/.test(text) &&
    /"lockfileVersion"\s*:/.test(text.slice(0, 256)) &&
    /^ {2}"workspaces"\s*:\s*\{/m.test(text.slice(0, 4096)),
  parse: parseBunLock,
  supersedes: ['package.json', 'bun.lockb'],
};

/** bun's old binary lockfile is not read: the message says how to get the text one. */
export const bunLockbParser: Parser = {
  kind: 'bun-lockb',
  matches: (path) => basename(path) === 'bun.lockb',
  sniff: () => false,
  binary: true,
  parse(_text, path) {
    throw new ParseError(
      path,
      undefined,
      "bun.lockb is bun's binary lockfile, which downstack cannot read: run `bun install --save-text-lockfile` (bun ≥ 1.1.39) to write bun.lock next to it, or upgrade to bun ≥ 1.2, which writes bun.lock by default",
    );
  },
};
