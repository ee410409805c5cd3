// poetry.lock and uv.lock both list packages with their dependencies by name; this folds either into the shared
// lock graph, with the project's own declarations (pyproject.toml) as the root's edges.
import type { DependencyKind } from '../../model.js';
import type { EdgeType, LockEdge, LockGraph, LockNode } from '../lockfile/lock-graph.js';
import { normalizePythonName } from './pep508.js';

export interface PythonPackage {
  id: string;
  name: string;
  version?: string;
  line?: number;
  edges: Array<{ name: string; version?: string; type: EdgeType }>;
  kind?: DependencyKind;
  /** A path dependency: one of the project's own packages. */
  ours?: boolean;
}

/**
 * Edges name packages (with a version where a name resolves to several); roots are given, or else every package
 * nothing else depends on (a lockfile read without its pyproject.toml).
 */
export function pythonLockGraph(
  packages: PythonPackage[],
  roots: Array<{ id: string; name: string; edges?: PythonPackage['edges'] }>,
): LockGraph {
  const byName = new Map<string, PythonPackage[]>();
  for (const pkg of packages) {
    const key = normalizePythonName(pkg.name);
    byName.set(key, [...(byName.get(key) ?? []), pkg]);
  }
  const resolve = (edge: { name: string; version?: string; type: EdgeType }): LockEdge | undefined => {
    const candidates = byName.get(normalizePythonName(edge.name)) ?? [];
    const target = candidates.find((pkg) => !edge.version || pkg.version === edge.version) ?? candidates[0];
    return target ? { to: target.id, type: edge.type } : undefined;
  };
  const nodes = new Map<string, LockNode>();
  for (const pkg of packages)
    nodes.set(pkg.id, {
      id: pkg.id,
      name: pkg.name,
      ...(pkg.version ? { version: pkg.version } : {}),
      ...(pkg.line ? { line: pkg.line } : {}),
      ...(pkg.kind ? { kind: pkg.kind } : {}),
      ...(pkg.ours ? { ours: true } : {}),
      edges: pkg.edges.map(resolve).filter((edge): edge is LockEdge => edge !== undefined),
    });
  const lockRoots = roots.map((root) => {
    if (root.edges)
      nodes.set(root.id, {
        id: root.id,
        name: root.name,
        edges: root.edges.map(resolve).filter((edge): edge is LockEdge => edge !== undefined),
      });
    return { id: root.id, name: root.name };
  });
  if (lockRoots.length > 0) return { nodes, roots: lockRoots };
  // No project to start from: every package nothing depends on is taken as declared.
  const depended = new Set<string>();
  for (const node of nodes.values()) for (const edge of node.edges) depended.add(edge.to);
  const rootId = '\u0000project';
  nodes.set(rootId, {
    id: rootId,
    name: '(project)',
    edges: [...nodes.keys()].filter((id) => !depended.has(id)).map((to) => ({ to, type: 'prod' })),
  });
  return { nodes, roots: [{ id: rootId, name: '(project)' }] };
}
