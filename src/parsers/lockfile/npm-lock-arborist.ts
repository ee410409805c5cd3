// The reference reader of package-lock.json / npm-shrinkwrap.json (all versions) through npm's own
// @npmcli/arborist loadVirtual: https://github.com/npm/cli/tree/latest/workspaces/arborist#loadvirtual
// Arborist reads a directory, so the lockfile text (and the manifests it needs) are written to a private
// temporary directory: the user's own files are never read or touched from here.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { ParseError } from '../../errors.js';
import { isRecord } from '../../json-text.js';
import type { DependencyKind, InputProblem } from '../../model.js';
import type { EdgeType, LockEdge, LockGraph, LockNode, LockRoot } from './lock-graph.js';

/** The parts of arborist's Node/Edge this reader uses. */
interface ArboristNode {
  location: string;
  name: string;
  packageName?: string;
  version?: string;
  isLink: boolean;
  isWorkspace?: boolean;
  target?: ArboristNode;
  dev: boolean;
  optional: boolean;
  devOptional: boolean;
  peer: boolean;
  edgesOut: Map<string, { type: string; to: ArboristNode | null }>;
  inventory: Map<string, ArboristNode>;
}

const MANIFEST_FIELDS = [
  'name',
  'version',
  'dependencies',
  'optionalDependencies',
  'peerDependencies',
  'peerDependenciesMeta',
  'devDependencies',
  'workspaces',
];

export interface ArboristInput {
  lock: Record<string, unknown>;
  text: string;
  fileName: 'package-lock.json' | 'npm-shrinkwrap.json';
  /** The package.json next to the lockfile: only v1 lockfiles need it, v2/v3 carry their own root. */
  manifest?: string;
  lines: Map<string, number>;
  fallbackRootName: string;
}

export async function graphFromArborist(
  input: ArboristInput,
  path: string,
  problems: InputProblem[],
): Promise<LockGraph> {
  const dir = await mkdtemp(join(tmpdir(), 'downstack-lock-'));
  try {
    await writeFile(join(dir, input.fileName), input.text);
    for (const [location, manifest] of manifestsFor(input, path, problems)) {
      const target = resolve(dir, location, 'package.json');
      if (!target.startsWith(dir + sep)) continue;
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, JSON.stringify(manifest));
    }
    // Loaded on first use only: arborist costs about half a second to import.
    const { default: Arborist } = await import('@npmcli/arborist');
    let tree: ArboristNode;
    try {
      tree = (await new Arborist({ path: dir }).loadVirtual()) as unknown as ArboristNode;
    } catch (error) {
      throw new ParseError(
        path,
        undefined,
        `npm could not read this lockfile: ${(error as Error).message.replaceAll(dir, '.')}`,
      );
    }
    return toGraph(tree, input);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The manifests arborist needs to see the lockfile's roots: the lockfile's own records for v2/v3. */
function manifestsFor(
  input: ArboristInput,
  path: string,
  problems: InputProblem[],
): Map<string, Record<string, unknown>> {
  const manifests = new Map<string, Record<string, unknown>>();
  const packages = isRecord(input.lock.packages) ? input.lock.packages : undefined;
  if (packages) {
    for (const [location, meta] of Object.entries(packages)) {
      if (!isRecord(meta) || meta.link === true || location.includes('node_modules/')) continue;
      manifests.set(location, pick(meta));
    }
    return manifests;
  }
  if (input.manifest !== undefined) {
    try {
      const manifest: unknown = JSON.parse(input.manifest);
      if (isRecord(manifest)) {
        manifests.set('', pick(manifest));
        return manifests;
      }
    } catch (error) {
      problems.push({
        file: path,
        message: `the package.json next to this lockfile is not valid JSON (${(error as Error).message}); direct dependencies are inferred`,
      });
    }
  } else {
    problems.push({
      file: path,
      message:
        'no package.json next to this v1 lockfile: direct dependencies are inferred (entries nothing else requires)',
    });
  }
  manifests.set('', inferredRoot(input.lock, input.fallbackRootName));
  return manifests;
}

function pick(meta: Record<string, unknown>): Record<string, unknown> {
  const manifest: Record<string, unknown> = {};
  for (const field of MANIFEST_FIELDS) if (meta[field] !== undefined) manifest[field] = meta[field];
  return manifest;
}

/** Without package.json a v1 lockfile's direct dependencies are the top-level entries nothing else requires. */
function inferredRoot(lock: Record<string, unknown>, name: string): Record<string, unknown> {
  const entries = isRecord(lock.dependencies) ? lock.dependencies : {};
  const required = new Set<string>();
  const collect = (deps: Record<string, unknown>) => {
    for (const meta of Object.values(deps)) {
      if (!isRecord(meta)) continue;
      if (isRecord(meta.requires)) for (const dep of Object.keys(meta.requires)) required.add(dep);
      if (isRecord(meta.dependencies)) collect(meta.dependencies);
    }
  };
  collect(entries);
  const prod: Array<[string, string]> = [];
  const dev: Array<[string, string]> = [];
  for (const [dep, meta] of Object.entries(entries)) {
    if (required.has(dep) || !isRecord(meta) || typeof meta.version !== 'string') continue;
    (meta.dev === true ? dev : prod).push([dep, meta.version]);
  }
  // fromEntries defines own keys, so a `__proto__` package name cannot reach a prototype.
  return {
    name: typeof lock.name === 'string' ? lock.name : name,
    dependencies: Object.fromEntries(prod),
    devDependencies: Object.fromEntries(dev),
  };
}

function toGraph(tree: ArboristNode, input: ArboristInput): LockGraph {
  const nodes = new Map<string, LockNode>();
  const roots: LockRoot[] = [{ id: '', name: tree.packageName || input.fallbackRootName, dir: '.' }];
  // A v1 lockfile records a linked local package's name only on the link (its folder), not on its target.
  const linkNames = new Map<string, string>();
  const v1 = !isRecord(input.lock.packages);
  if (v1)
    for (const node of tree.inventory.values())
      if (node.isLink && node.target) linkNames.set(node.target.location, node.name);
  for (const node of tree.inventory.values()) {
    if (node.isLink) continue;
    const edges: LockEdge[] = [];
    for (const edge of node.edgesOut.values()) {
      if (edge.type === 'workspace' || !edge.to) continue;
      const to = edge.to.isLink ? edge.to.target : edge.to;
      if (to) edges.push({ to: to.location, type: edgeType(edge.type) });
    }
    const name = linkNames.get(node.location) || node.packageName || node.name;
    const v1Key = v1 ? v1LineKey(node.location) : undefined;
    const line = input.lines.get(v1Key ?? node.location);
    nodes.set(node.location, {
      id: node.location,
      name: node.location === '' ? (roots[0]?.name as string) : name,
      ...(node.version ? { version: node.version } : {}),
      ...(line !== undefined ? { line } : {}),
      edges,
      kind: kindOf(node),
      // A package outside node_modules is a folder of this repository (a workspace or a `file:` package).
      ...(node.location !== '' && !node.location.includes('node_modules/') ? { ours: true } : {}),
    });
    if (node.isWorkspace && node.location !== '') roots.push({ id: node.location, name, dir: node.location });
  }
  roots.sort((a, b) => (a.id === '' ? -1 : b.id === '' ? 1 : a.id < b.id ? -1 : 1));
  return { nodes, roots };
}

/** v1 lockfiles key top-level entries by name only; nested ones have no four-space key. */
function v1LineKey(location: string): string {
  const rest = location.startsWith('node_modules/') ? location.slice('node_modules/'.length) : location;
  return rest.includes('node_modules/') ? `\u0000${location}` : rest;
}

function edgeType(type: string): EdgeType {
  if (type === 'dev' || type === 'optional' || type === 'prod') return type;
  return type === 'peer' || type === 'peerOptional' ? 'peer' : 'prod';
}

function kindOf(node: ArboristNode): DependencyKind {
  if (node.dev) return 'dev';
  if (node.optional || node.devOptional) return 'optional';
  if (node.peer) return 'peer';
  return 'prod';
}
