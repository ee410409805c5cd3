// The fast reader of package-lock v2/v3 `packages` maps: https://docs.npmjs.com/cli/configuring-npm/package-lock-json#packages
// It resolves each dependency the way node does from a `node_modules/` location (own node_modules, then the
// parent's, up to the root). test/parsers/npm-lock.test.ts proves it matches @npmcli/arborist on every fixture.
import { isRecord } from '../json-text.js';
import type { DependencyKind } from '../model.js';
import type { EdgeType, LockEdge, LockGraph, LockNode, LockRoot } from './lock-graph.js';

const NM = 'node_modules/';
// In npm's order of loading edges: a name in several sections ends up with the last one's type.
const SECTIONS: Array<[section: string, type: EdgeType]> = [
  ['peerDependencies', 'peer'],
  ['dependencies', 'prod'],
  ['optionalDependencies', 'optional'],
  ['devDependencies', 'dev'],
];

/**
 * Line of every key indented by exactly four spaces (the `packages` keys of v2/v3, top-level names of v1);
 * keys seen twice go to `duplicates` (JSON.parse silently keeps the later one).
 */
export function entryLines(text: string, duplicates: Array<{ key: string; line: number }> = []): Map<string, number> {
  const lines = new Map<string, number>();
  const pattern = /\n {4}"((?:[^"\\]|\\.)*)": \{/g;
  let line = 1;
  let last = 0;
  for (let hit = pattern.exec(text); hit; hit = pattern.exec(text)) {
    for (let i = text.indexOf('\n', last); i !== -1 && i <= hit.index; i = text.indexOf('\n', i + 1)) line++;
    last = hit.index + 1;
    const key = hit[1] as string;
    if (!lines.has(key)) lines.set(key, line);
    else duplicates.push({ key, line });
  }
  return lines;
}

/** Node id of the package `name` as seen from `location`, or undefined when the lockfile lacks it. */
export function resolveFrom(packages: Record<string, unknown>, location: string, name: string): string | undefined {
  let from: string | undefined = location;
  while (from !== undefined) {
    const candidate = from === '' ? NM + name : `${from}/${NM}${name}`;
    if (Object.hasOwn(packages, candidate)) return candidate;
    from = resolveParent(packages, from);
  }
  return undefined;
}

/** The node whose node_modules a location sits in, or for a top-level folder the nearest enclosing package. */
function resolveParent(packages: Record<string, unknown>, location: string): string | undefined {
  if (location === '') return undefined;
  const nested = location.lastIndexOf(`/${NM}`);
  if (nested >= 0) return location.slice(0, nested);
  if (location.startsWith(NM)) return '';
  for (let dir = location.slice(0, Math.max(0, location.lastIndexOf('/'))); dir !== ''; dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/')))) {
    if (Object.hasOwn(packages, dir)) return dir;
  }
  return '';
}

export function kindOf(meta: Record<string, unknown>): DependencyKind {
  if (meta.dev === true) return 'dev';
  if (meta.optional === true || meta.devOptional === true) return 'optional';
  if (meta.peer === true) return 'peer';
  return 'prod';
}

/** The folder name after the last `node_modules/` (the package name unless the entry records an alias). */
export function folderName(location: string): string {
  const index = location.lastIndexOf(NM);
  return index >= 0 ? location.slice(index + NM.length) : location.slice(location.lastIndexOf('/') + 1);
}

/** Matches a workspace glob from package.json `workspaces` (`*` within one segment, `**` across). */
export function workspaceMatcher(patterns: string[]): (location: string) => boolean {
  const regexes = patterns.map((pattern) => {
    const source = pattern
      .replace(/^\.\//, '')
      .replace(/\/+$/, '')
      .split('/')
      .map((segment) => (segment === '**' ? '.*' : segment.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')))
      .join('/');
    return new RegExp(`^${source}$`);
  });
  return (location) => regexes.some((regex) => regex.test(location));
}

export function workspacePatterns(manifest: Record<string, unknown>): string[] {
  const field = manifest.workspaces;
  const list = Array.isArray(field) ? field : isRecord(field) && Array.isArray(field.packages) ? field.packages : [];
  return list.filter((entry): entry is string => typeof entry === 'string');
}

export function graphFromPackages(packages: Record<string, unknown>, lines: Map<string, number>, fallbackRootName: string): LockGraph {
  const rootMeta = isRecord(packages['']) ? packages[''] : {};
  const isWorkspace = workspaceMatcher(workspacePatterns(rootMeta));
  const nodes = new Map<string, LockNode>();
  const roots: LockRoot[] = [{ id: '', name: typeof rootMeta.name === 'string' && rootMeta.name !== '' ? rootMeta.name : fallbackRootName }];

  const target = (id: string): string | undefined => {
    const meta = packages[id];
    if (!isRecord(meta) || meta.link !== true) return id;
    return typeof meta.resolved === 'string' && Object.hasOwn(packages, meta.resolved) ? meta.resolved : undefined;
  };

  for (const location of Object.keys(packages)) {
    const meta = packages[location];
    if (!isRecord(meta) || meta.link === true) continue;
    const edges: LockEdge[] = [];
    const byName = new Map<string, EdgeType>();
    for (const [section, type] of SECTIONS) {
      const deps = meta[section];
      if (!isRecord(deps)) continue;
      for (const name of Object.keys(deps)) byName.set(name, type);
    }
    for (const [name, type] of byName) {
      const found = resolveFrom(packages, location, name);
      const to = found === undefined ? undefined : target(found);
      if (to !== undefined) edges.push({ to, type });
    }
    const name = typeof meta.name === 'string' && meta.name !== '' ? meta.name : folderName(location);
    nodes.set(location, {
      id: location,
      name,
      ...(typeof meta.version === 'string' ? { version: meta.version } : {}),
      ...(lines.has(location) ? { line: lines.get(location) } : {}),
      edges,
      kind: kindOf(meta),
    });
    if (location !== '' && !location.includes(NM) && isWorkspace(location)) roots.push({ id: location, name });
  }
  if (!nodes.has('')) nodes.set('', { id: '', name: roots[0]?.name ?? fallbackRootName, edges: [] });
  roots.sort((a, b) => (a.id === '' ? -1 : b.id === '' ? 1 : a.id < b.id ? -1 : 1));
  return { nodes, roots };
}
