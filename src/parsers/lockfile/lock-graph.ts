// Every lockfile reader (npm's, and those of PyPI, RubyGems, Composer, Cargo and NuGet) folds its format into one
// package graph; `via` chains, `direct` and the dev/optional/peer kind are derived here, once, so all formats answer
// "why is this here?" the same way.
import type { Dependency, DependencyKind, Ecosystem } from '../../model.js';
import { CHAIN_PENDING, type ChainLink, chainLink, withChain } from '../../via-chain.js';

export type EdgeType = 'prod' | 'dev' | 'optional' | 'peer';

export interface LockEdge {
  /** Id of the node the dependency resolves to (links already followed to their target). */
  to: string;
  type: EdgeType;
}

export interface LockNode {
  id: string;
  /** The package's real name (not the folder or alias name). */
  name: string;
  version?: string;
  line?: number;
  edges: LockEdge[];
  /** The kind as the lockfile records it (npm flags); computed from the graph when no node has one. */
  kind?: DependencyKind;
}

export interface LockRoot {
  id: string;
  /** Shown first in `via` chains and as `workspace`. */
  name: string;
}

export interface LockGraph {
  nodes: Map<string, LockNode>;
  /** The project root first, then each workspace; each is a chain start and never reported itself. */
  roots: LockRoot[];
}

const EDGE_ORDER: Record<EdgeType, number> = { prod: 0, optional: 1, peer: 2, dev: 3 };

/**
 * Shortest chain from each root (breadth-first, edges in node-id order), one dependency per root and node. Each
 * chain is its parent's plus one link, so the walk costs O(packages + edges) in time and memory at any depth.
 */
export function dependenciesFromGraph(graph: LockGraph, file: string, ecosystem: Ecosystem = 'npm'): Dependency[] {
  const kinds = graph.roots.length > 0 && hasRecordedKinds(graph) ? undefined : computeKinds(graph);
  const rootNames = new Map(graph.roots.map((root) => [root.id, root.name]));
  const multi = graph.roots.length > 1;
  // Sorted in place, once: the graph belongs to this call's reader and nothing else reads the edge order.
  for (const node of graph.nodes.values())
    if (node.edges.length > 1 && !isSorted(node.edges)) node.edges.sort(compareEdges);

  const out: Dependency[] = [];
  // Dev-only packages go last, so reports that show the first few pieces of evidence show what ships.
  const devOut: Dependency[] = [];
  for (const root of graph.roots) {
    const start = graph.nodes.get(root.id);
    if (!start) continue;
    const seen = new Set<string>([root.id]);
    // The frontier as two parallel arrays: no wrapper object per visited package.
    let frontier: LockNode[] = [start];
    let chains: ChainLink[] = [chainLink(root.name)];
    while (frontier.length > 0) {
      const next: LockNode[] = [];
      const nextChains: ChainLink[] = [];
      for (let f = 0; f < frontier.length; f++) {
        const node = frontier[f] as LockNode;
        const via = chains[f] as ChainLink;
        for (const edge of node.edges) {
          // devDependencies count only for the root a chain starts from: npm never installs a dependency's.
          if (edge.type === 'dev' && node !== start) continue;
          if (seen.has(edge.to)) continue;
          const target = graph.nodes.get(edge.to);
          if (!target) continue;
          seen.add(edge.to);
          // With one root, the only root is the start, already seen: no lookups needed.
          const rootName = multi ? rootNames.get(target.id) : undefined;
          const chain = chainLink(rootName ?? target.name, via);
          next.push(target);
          nextChains.push(chain);
          if (rootName !== undefined) continue;
          // One object shape for all (absent fields stay undefined, which JSON output leaves out).
          const dependency = withChain(
            {
              ecosystem,
              name: target.name,
              version: target.version,
              file,
              line: target.line,
              direct: chain.length === 2,
              via: CHAIN_PENDING,
              kind: kinds?.get(target.id) ?? target.kind ?? 'prod',
              workspace: multi ? root.name : undefined,
            },
            chain,
          );
          (dependency.kind === 'dev' ? devOut : out).push(dependency);
        }
      }
      frontier = next;
      chains = nextChains;
    }
  }
  for (const dependency of devOut) out.push(dependency);
  return out;
}

/** Ties between equally short chains go to the lower node id, so every reader of a format picks the same one. */
function compareEdges(a: LockEdge, b: LockEdge): number {
  if (a.to !== b.to) return a.to < b.to ? -1 : 1;
  return EDGE_ORDER[a.type] - EDGE_ORDER[b.type];
}

/** Lockfiles mostly list dependencies in name order already; checking is cheaper than sorting. */
function isSorted(edges: LockEdge[]): boolean {
  for (let i = 1; i < edges.length; i++)
    if (compareEdges(edges[i - 1] as LockEdge, edges[i] as LockEdge) > 0) return false;
  return true;
}

function hasRecordedKinds(graph: LockGraph): boolean {
  for (const node of graph.nodes.values()) if (node.kind !== undefined) return true;
  return false;
}

/**
 * npm's meaning of the flags, for formats that do not record them: dev = not reachable without a root's
 * devDependencies; optional = every other path crosses an optional edge; peer = only reachable through peers.
 */
export function computeKinds(graph: LockGraph): Map<string, DependencyKind> {
  const rootIds = graph.roots.map((root) => root.id);
  const nonDev = reach(graph, rootIds, (type) => type !== 'dev');
  const required = reach(graph, rootIds, (type) => type === 'prod' || type === 'peer');
  const nonPeer = reach(graph, rootIds, (type) => type === 'prod' || type === 'optional');
  const kinds = new Map<string, DependencyKind>();
  for (const id of graph.nodes.keys()) {
    if (!nonDev.has(id)) kinds.set(id, 'dev');
    else if (!required.has(id)) kinds.set(id, 'optional');
    else if (!nonPeer.has(id)) kinds.set(id, 'peer');
    else kinds.set(id, 'prod');
  }
  return kinds;
}

function reach(graph: LockGraph, starts: string[], follow: (type: EdgeType) => boolean): Set<string> {
  const seen = new Set<string>(starts);
  const stack = [...starts];
  while (stack.length > 0) {
    const node = graph.nodes.get(stack.pop() as string);
    if (!node) continue;
    for (const edge of node.edges) {
      if (!follow(edge.type) || seen.has(edge.to)) continue;
      seen.add(edge.to);
      stack.push(edge.to);
    }
  }
  return seen;
}
