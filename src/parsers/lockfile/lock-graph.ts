// Every lockfile reader (npm's, and those of PyPI, RubyGems, Composer, Cargo and NuGet) folds its format into one
// package graph; `via` chains, `direct` and the dev/optional/peer kind are derived here, once, so all formats answer
// "why is this here?" and "how does it reach the stack?" the same way.
import type { Dependency, DependencyKind, Ecosystem } from '../../model.js';
import { reachOfRank } from '../../reach.js';
import { CHAIN_PENDING, type ChainLink, chainLink, withChain } from '../../via-chain.js';
import { inScope, type ParseOptions, type ParseResult } from '../types.js';

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
  /** One of the repository's own packages (a local `file:` package): what it declares is direct, like a root's. */
  ours?: boolean;
}

export interface LockRoot {
  id: string;
  /** Shown first in `via` chains and as `workspace`. */
  name: string;
  /** The root's folder relative to the lockfile's (posix, `.` for its own): what a ParseScope selects by. */
  dir?: string;
}

export interface LockGraph {
  nodes: Map<string, LockNode>;
  /** The project root first, then each workspace; each is a chain start and never reported itself. */
  roots: LockRoot[];
}

const EDGE_ORDER: Record<EdgeType, number> = { prod: 0, optional: 1, peer: 2, dev: 3 };

// Reach ranks (src/reach.ts): 0 direct, 1 transitive, 2 optional, 3 dev. A path is as good as its worst step.
const LEVELS = 4;
const OURS_RANK: Record<EdgeType, number> = { prod: 0, optional: 0, peer: 0, dev: 3 };
const THEIRS_RANK: Record<EdgeType, number> = { prod: 1, optional: 2, peer: 2, dev: 3 };

/**
 * One dependency per root and node, with the best reach any path from that root gives it (the repository's own
 * packages — roots and local ones — declare direct dependencies; a third party's are transitive, or optional through
 * an optional or peer edge; dev when only a root's devDependencies lead there) and, among the paths of that reach,
 * the shortest chain (edges in node-id order). Reach only ever gets worse along a path, so one queue per reach, drained
 * best first, finds both: each node is finished the first time it leaves a queue, and the walk costs
 * O(packages + edges) in time and memory at any depth (each chain is its parent's plus one link). With
 * `perWorkspace`, the packages it leaves out are listed once per lockfile, and `dependencyCount` still counts one per
 * workspace and package.
 */
export function dependenciesFromGraph(
  graph: LockGraph,
  file: string,
  ecosystem: Ecosystem = 'npm',
  { scope, perWorkspace }: ParseOptions = {},
): Pick<ParseResult, 'dependencies' | 'dependencyCount'> {
  // With a scope, chains start only at its workspaces; the other roots stay the repository's own packages.
  const starts = scope ? graph.roots.filter((root) => root.dir !== undefined && inScope(root.dir, scope)) : graph.roots;
  // A recorded kind is relative to every root; the scoped workspaces' own is computed from them.
  const kinds =
    !scope && graph.roots.length > 0 && hasRecordedKinds(graph)
      ? undefined
      : computeKinds({ nodes: graph.nodes, roots: starts });
  const rootNames = new Map<LockNode, string>();
  for (const root of graph.roots) {
    const node = graph.nodes.get(root.id);
    if (node) rootNames.set(node, root.name);
  }
  const multi = graph.roots.length > 1;
  // Packages listed once for all workspaces (ParseOptions.perWorkspace): the best any workspace gives each, found in
  // the same walks and listed after them. With one chain start there is nothing to fold.
  const folded = multi && starts.length > 1 && perWorkspace ? new Map<LockNode, Folded>() : undefined;
  const perWorkspaceNodes = new Set<LockNode>();
  if (folded && perWorkspace)
    for (const node of graph.nodes.values()) if (perWorkspace(ecosystem, node.name)) perWorkspaceNodes.add(node);
  let count = 0;
  // Sorted in place, once: the graph belongs to this call's reader and nothing else reads the edge order. Each edge's
  // node is looked up here once too, not again from every root's walk (a monorepo's lockfile has dozens of roots).
  const targets = new Map<LockNode, Array<LockNode | undefined>>();
  for (const node of graph.nodes.values()) {
    if (node.edges.length > 1 && !isSorted(node.edges)) node.edges.sort(compareEdges);
    targets.set(
      node,
      node.edges.map((edge) => graph.nodes.get(edge.to)),
    );
  }

  const out: Dependency[] = [];
  // Dev-only packages go last, so reports that show the first few pieces of evidence show what ships.
  const devOut: Dependency[] = [];
  for (const root of starts) {
    const start = graph.nodes.get(root.id);
    if (!start) continue;
    const best = new Map<LockNode, number>([[start, 0]]);
    // What the root itself declares is `direct` (declared by the project) whichever path gives it its reach.
    const declared = new Set(targets.get(start));
    // Each queue as two parallel arrays: no wrapper object per visited package.
    const queues: LockNode[][] = Array.from({ length: LEVELS }, () => []);
    const chainQueues: ChainLink[][] = Array.from({ length: LEVELS }, () => []);
    (queues[0] as LockNode[]).push(start);
    (chainQueues[0] as ChainLink[]).push(chainLink(root.name));
    for (let level = 0; level < LEVELS; level++) {
      const queue = queues[level] as LockNode[];
      const chains = chainQueues[level] as ChainLink[];
      // The queue grows while it is read: packages of the same reach are appended behind it.
      for (let q = 0; q < queue.length; q++) {
        const node = queue[q] as LockNode;
        // Queued again later with a better reach: finished there already.
        if (best.get(node) !== level) continue;
        const via = chains[q] as ChainLink;
        if (node !== start && (!multi || !rootNames.has(node))) {
          count++;
          const direct = via.length === 2 || declared.has(node);
          if (folded && !perWorkspaceNodes.has(node)) {
            const known = folded.get(node);
            if (!known) folded.set(node, { level, via, workspace: root.name, direct });
            else {
              known.direct ||= direct;
              // Each walk drains its levels best first, but a later workspace may reach the package better.
              if (level < known.level) Object.assign(known, { level, via, workspace: root.name });
            }
          } else {
            const dependency = dependencyOf(node, level, via, direct, multi ? root.name : undefined);
            (dependency.kind === 'dev' ? devOut : out).push(dependency);
          }
        }
        const ours = node === start || node.ours === true || rootNames.has(node);
        const ranks = ours ? OURS_RANK : THEIRS_RANK;
        const nodeTargets = targets.get(node) as Array<LockNode | undefined>;
        for (let e = 0; e < node.edges.length; e++) {
          const edge = node.edges[e] as LockEdge;
          // devDependencies count only for the root a chain starts from: npm never installs a dependency's.
          if (edge.type === 'dev' && node !== start) continue;
          const target = nodeTargets[e];
          if (!target) continue;
          const rank = Math.max(level, ranks[edge.type]);
          const known = best.get(target);
          if (known !== undefined && known <= rank) continue;
          best.set(target, rank);
          (queues[rank] as LockNode[]).push(target);
          const rootName = multi ? rootNames.get(target) : undefined;
          (chainQueues[rank] as ChainLink[]).push(chainLink(rootName ?? target.name, via));
        }
      }
    }
  }
  for (const [node, { level, via, direct, workspace }] of folded ?? []) {
    const dependency = dependencyOf(node, level, via, direct, workspace);
    (dependency.kind === 'dev' ? devOut : out).push(dependency);
  }
  for (const dependency of devOut) out.push(dependency);
  return folded ? { dependencies: out, dependencyCount: count } : { dependencies: out };

  function dependencyOf(
    node: LockNode,
    level: number,
    via: ChainLink,
    direct: boolean,
    workspace: string | undefined,
  ): Dependency {
    // One object shape for all (absent fields stay undefined, which JSON output leaves out).
    return withChain(
      {
        ecosystem,
        name: node.name,
        version: node.version,
        file,
        line: node.line,
        direct,
        via: CHAIN_PENDING,
        kind: kinds?.get(node.id) ?? node.kind ?? 'prod',
        reach: reachOfRank(level),
        workspace,
      },
      via,
    );
  }
}

/** A package listed once for all workspaces: the best reach any gives it, and the first chain of that reach. */
interface Folded {
  level: number;
  via: ChainLink;
  workspace: string;
  /** Declared by some workspace. */
  direct: boolean;
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
  // The three reachabilities in one walk, a bit each; a node is walked again only when it gains a bit (three times at
  // most), where three walks each looked every node up by id again.
  const reached = new Map<LockNode, number>();
  const stack: LockNode[] = [];
  for (const root of graph.roots) {
    const node = graph.nodes.get(root.id);
    if (!node) continue;
    reached.set(node, ALL_PATHS);
    stack.push(node);
  }
  for (let node = stack.pop(); node; node = stack.pop()) {
    const have = reached.get(node) as number;
    for (const edge of node.edges) {
      const passed = have & PATHS_THROUGH[edge.type];
      if (passed === 0) continue;
      const target = graph.nodes.get(edge.to);
      if (!target) continue;
      const known = reached.get(target) ?? 0;
      if ((known | passed) === known) continue;
      reached.set(target, known | passed);
      stack.push(target);
    }
  }
  const kinds = new Map<string, DependencyKind>();
  for (const [id, node] of graph.nodes) {
    const paths = reached.get(node) ?? 0;
    if (!(paths & NON_DEV)) kinds.set(id, 'dev');
    else if (!(paths & REQUIRED)) kinds.set(id, 'optional');
    else if (!(paths & NON_PEER)) kinds.set(id, 'peer');
    else kinds.set(id, 'prod');
  }
  return kinds;
}

// computeKinds' paths from a root: without dev edges; through prod and peer edges only; through prod and optional only.
const NON_DEV = 1;
const REQUIRED = 2;
const NON_PEER = 4;
const ALL_PATHS = NON_DEV | REQUIRED | NON_PEER;
const PATHS_THROUGH: Record<EdgeType, number> = {
  prod: ALL_PATHS,
  optional: NON_DEV | NON_PEER,
  peer: NON_DEV | REQUIRED,
  dev: 0,
};
