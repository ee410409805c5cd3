// The fast reader of package-lock v2/v3 `packages` maps: https://docs.npmjs.com/cli/configuring-npm/package-lock-json#packages
// It resolves each dependency the way node does from a `node_modules/` location (own node_modules, then the
// parent's, up to the root). test/parsers/npm-lock.test.ts proves it matches @npmcli/arborist on every fixture.
import { isRecord } from '../../json-text.js';
import type { DependencyKind } from '../../model.js';
import type { EdgeType, LockEdge, LockGraph, LockNode, LockRoot } from './lock-graph.js';

const NM = 'node_modules/';

/**
 * Line of every key indented by exactly four spaces (the `packages` keys of v2/v3, top-level names of v1);
 * keys seen twice go to `duplicates` (JSON.parse silently keeps the later one).
 */
export function entryLines(text: string, duplicates: Array<{ key: string; line: number }> = []): Map<string, number> {
  const lines = new Map<string, number>();
  const marker = '\n    "';
  let line = 1;
  let counted = 0;
  // indexOf is far cheaper than a regular expression over a multi-megabyte lockfile.
  for (let at = text.indexOf(marker); at !== -1; at = text.indexOf(marker, at + 1)) {
    // The key's closing quote (skipping escaped ones) must be followed by an object on the same line.
    let end = text.indexOf('"', at + marker.length);
    while (end !== -1 && text[end - 1] === '\\') end = text.indexOf('"', end + 1);
    if (end === -1 || !text.startsWith('": {', end)) continue;
    for (let i = text.indexOf('\n', counted); i !== -1 && i <= at; i = text.indexOf('\n', i + 1)) {
      line++;
      counted = i + 1;
    }
    const raw = text.slice(at + marker.length, end);
    const key = raw.includes('\\') || raw.includes('"') ? decodeKey(raw) : raw;
    if (key === undefined) continue;
    if (!lines.has(key)) lines.set(key, line);
    else duplicates.push({ key, line });
  }
  return lines;
}

function decodeKey(raw: string): string | undefined {
  try {
    const key: unknown = JSON.parse(`"${raw}"`);
    return typeof key === 'string' ? key : undefined;
  } catch {
    // Not a well-formed key on this line (the JSON parser reports the file if it is broken).
    return undefined;
  }
}

/**
 * Lines of the `packages` keys by position, without building a map: npm writes them in the order JSON.parse
 * returns them. Undefined when any key is not where expected (hand-edited, escaped or duplicated keys): the
 * caller then uses entryLines, which also reports duplicates.
 */
export function alignedLines(text: string, locations: string[]): number[] | undefined {
  const start = text.indexOf('\n  "packages": {');
  const end = start === -1 ? -1 : text.indexOf('\n  }', start);
  if (end === -1) return undefined;
  const marker = '\n    "';
  const lines: number[] = new Array<number>(locations.length);
  let line = 1;
  let counted = 0;
  let index = 0;
  for (let at = text.indexOf(marker, start); at !== -1 && at < end; at = text.indexOf(marker, at + 1)) {
    const location = locations[index];
    const keyAt = at + marker.length;
    if (
      location === undefined ||
      !text.startsWith(location, keyAt) ||
      !text.startsWith('": {', keyAt + location.length)
    )
      return undefined;
    for (let i = text.indexOf('\n', counted); i !== -1 && i <= at; i = text.indexOf('\n', i + 1)) {
      line++;
      counted = i + 1;
    }
    lines[index++] = line;
  }
  return index === locations.length ? lines : undefined;
}

/**
 * Resolves dependency names the way node does from a lockfile location: the location's own node_modules,
 * then its parent's, up to the root. Indexed once by (folder, name), so a lookup builds no path strings.
 */
export class PackageResolver {
  private readonly children = new Map<string, Map<string, string | undefined>>();
  private readonly parents = new Map<string, string | undefined>();

  constructor(
    private readonly packages: Record<string, unknown>,
    locations: string[] = Object.keys(packages),
  ) {
    for (const location of locations) {
      const at = location.lastIndexOf(NM);
      if (at < 0 || (at > 0 && location[at - 1] !== '/')) continue;
      const parent = at === 0 ? '' : location.slice(0, at - 1);
      let names = this.children.get(parent);
      if (!names) this.children.set(parent, (names = new Map()));
      names.set(location.slice(at + NM.length), this.linkTarget(location));
      this.parents.set(location, parent);
    }
  }

  /** A link entry stands for its target folder (a workspace or a `file:` package); undefined when that is missing. */
  private linkTarget(location: string): string | undefined {
    const meta = this.packages[location];
    if (!isRecord(meta) || meta.link !== true) return location;
    return typeof meta.resolved === 'string' && Object.hasOwn(this.packages, meta.resolved) ? meta.resolved : undefined;
  }

  /** The node a dependency named `name` of the package at `location` resolves to, links followed. */
  resolve(location: string, name: string): string | undefined {
    for (let from: string | undefined = location; from !== undefined; from = this.parentOf(from)) {
      const names = this.children.get(from);
      if (names?.has(name)) return names.get(name);
    }
    return undefined;
  }

  /** The node whose node_modules a location sits in; for a folder outside node_modules, the nearest enclosing package. */
  private parentOf(location: string): string | undefined {
    if (location === '') return undefined;
    const known = this.parents.get(location);
    if (known !== undefined) return known;
    for (
      let dir = location.slice(0, Math.max(0, location.lastIndexOf('/')));
      dir !== '';
      dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/')))
    ) {
      if (Object.hasOwn(this.packages, dir)) return dir;
    }
    return '';
  }
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
      .map((segment) =>
        segment === '**' ? '.*' : segment.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'),
      )
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

/** `lineOf(location, index)` gives a package's line from its key or its position among `locations`. */
export function graphFromPackages(
  packages: Record<string, unknown>,
  lineOf: (location: string, index: number) => number | undefined,
  fallbackRootName: string,
  locations: string[] = Object.keys(packages),
): LockGraph {
  const rootMeta = isRecord(packages['']) ? packages[''] : {};
  const isWorkspace = workspaceMatcher(workspacePatterns(rootMeta));
  const nodes = new Map<string, LockNode>();
  const roots: LockRoot[] = [
    {
      id: '',
      name: typeof rootMeta.name === 'string' && rootMeta.name !== '' ? rootMeta.name : fallbackRootName,
      dir: '.',
    },
  ];

  const resolver = new PackageResolver(packages, locations);
  const edgeIndex = new Map<string, number>();
  let location = '';
  let edges: LockEdge[] = [];
  let several = false;
  const addEdges = (deps: unknown, type: EdgeType) => {
    if (!isRecord(deps)) return;
    for (const name of Object.keys(deps)) {
      // A name in several sections keeps the later section's type, as npm's edges do.
      const known = several ? edgeIndex.get(name) : undefined;
      if (known !== undefined) {
        (edges[known] as LockEdge).type = type;
        continue;
      }
      const to = resolver.resolve(location, name);
      if (to === undefined) continue;
      if (several) edgeIndex.set(name, edges.length);
      edges.push({ to, type });
    }
  };
  for (let index = 0; index < locations.length; index++) {
    location = locations[index] as string;
    const meta = packages[location];
    if (!isRecord(meta) || meta.link === true) continue;
    edges = [];
    // Constant property names are cheap loads; the order is npm's (peer, prod, optional, dev).
    const { peerDependencies, dependencies, optionalDependencies, devDependencies } = meta;
    several =
      (peerDependencies !== undefined ? 1 : 0) +
        (dependencies !== undefined ? 1 : 0) +
        (optionalDependencies !== undefined ? 1 : 0) +
        (devDependencies !== undefined ? 1 : 0) >
      1;
    if (several) edgeIndex.clear();
    addEdges(peerDependencies, 'peer');
    addEdges(dependencies, 'prod');
    addEdges(optionalDependencies, 'optional');
    addEdges(devDependencies, 'dev');
    const name = typeof meta.name === 'string' && meta.name !== '' ? meta.name : folderName(location);
    nodes.set(location, {
      id: location,
      name,
      version: typeof meta.version === 'string' ? meta.version : undefined,
      line: lineOf(location, index),
      edges,
      kind: kindOf(meta),
      // A package outside node_modules is a folder of this repository (a workspace or a `file:` package).
      ...(location !== '' && !location.includes(NM) ? { ours: true } : {}),
    });
    if (location !== '' && !location.includes(NM) && isWorkspace(location))
      roots.push({ id: location, name, dir: location });
  }
  if (!nodes.has('')) nodes.set('', { id: '', name: roots[0]?.name ?? fallbackRootName, edges: [] });
  roots.sort((a, b) => (a.id === '' ? -1 : b.id === '' ? 1 : a.id < b.id ? -1 : 1));
  return { nodes, roots };
}
