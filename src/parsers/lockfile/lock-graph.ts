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

/**
 * An edge's type in the walks' arrays (Positions.edgeType), the order of two edges to the same package, and the index
 * of the tables below.
 */
const EDGE_CODE: Record<EdgeType, number> = { prod: 0, optional: 1, peer: 2, dev: 3 };
const DEV = EDGE_CODE.dev;

// Reach ranks (src/reach.ts): 0 direct, 1 transitive, 2 optional, 3 dev. A path is as good as its worst step.
// Indexed by EDGE_CODE: prod, optional, peer, dev.
const LEVELS = 4;
const OURS_RANK = [0, 0, 0, 3];
const THEIRS_RANK = [1, 2, 2, 3];

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
  const at = positions(graph);
  const { nodes, firstEdge, edgeTo, edgeType } = at;
  const n = nodes.length;
  // With a scope, chains start only at its workspaces; the other roots stay the repository's own packages.
  const starts = scope ? graph.roots.filter((root) => root.dir !== undefined && inScope(root.dir, scope)) : graph.roots;
  // A recorded kind is relative to every root; the scoped workspaces' own is computed from them.
  const kinds = !scope && graph.roots.length > 0 && hasRecordedKinds(graph) ? undefined : kindsFrom(at, starts);
  const rootNames = new Array<string | undefined>(n);
  for (const root of graph.roots) {
    const i = at.index.get(root.id);
    if (i !== undefined) rootNames[i] = root.name;
  }
  // The repository's own packages (roots and local ones) declare direct dependencies.
  const ours = new Uint8Array(n);
  for (let i = 0; i < n; i++) if ((nodes[i] as LockNode).ours === true || rootNames[i] !== undefined) ours[i] = 1;
  const multi = graph.roots.length > 1;
  // Packages listed once for all workspaces (ParseOptions.perWorkspace): the best any workspace gives each, found in
  // the same walks and listed after them, in the order they were first found. With one chain start there is nothing
  // to fold.
  const folded = multi && starts.length > 1 && perWorkspace ? foldedListing(n) : undefined;
  const eachWorkspace = new Uint8Array(n);
  if (folded && perWorkspace)
    for (let i = 0; i < n; i++) if (perWorkspace(ecosystem, (nodes[i] as LockNode).name)) eachWorkspace[i] = 1;
  let count = 0;

  const out: Dependency[] = [];
  // Dev-only packages go last, so reports that show the first few pieces of evidence show what ships.
  const devOut: Dependency[] = [];
  // One walk per root, reusing these: the best rank found so far (-1: not reached), and what the root declares.
  const best = new Int8Array(n);
  const declared = new Uint8Array(n);
  for (const root of starts) {
    const start = at.index.get(root.id);
    if (start === undefined) continue;
    best.fill(-1);
    best[start] = 0;
    // What the root itself declares is `direct` (declared by the project) whichever path gives it its reach.
    declared.fill(0);
    for (let e = firstEdge[start] as number; e < (firstEdge[start + 1] as number); e++)
      if ((edgeTo[e] as number) >= 0) declared[edgeTo[e] as number] = 1;
    // Each queue as two parallel arrays: no wrapper object per visited package.
    const queues: number[][] = [[start], [], [], []];
    const chainQueues: ChainLink[][] = [[chainLink(root.name)], [], [], []];
    for (let level = 0; level < LEVELS; level++) {
      const queue = queues[level] as number[];
      const chains = chainQueues[level] as ChainLink[];
      // The queue grows while it is read: packages of the same reach are appended behind it.
      for (let q = 0; q < queue.length; q++) {
        const i = queue[q] as number;
        // Queued again later with a better reach: finished there already.
        if (best[i] !== level) continue;
        const via = chains[q] as ChainLink;
        if (i !== start && (!multi || rootNames[i] === undefined)) {
          count++;
          const direct = via.length === 2 || declared[i] === 1;
          if (folded && eachWorkspace[i] === 0) folded.found(i, level, via, root.name, direct);
          else {
            const dependency = dependencyOf(i, level, via, direct, multi ? root.name : undefined);
            (dependency.kind === 'dev' ? devOut : out).push(dependency);
          }
        }
        const ranks = i === start || ours[i] === 1 ? OURS_RANK : THEIRS_RANK;
        for (let e = firstEdge[i] as number, end = firstEdge[i + 1] as number; e < end; e++) {
          const type = edgeType[e] as number;
          // devDependencies count only for the root a chain starts from: npm never installs a dependency's.
          if (type === DEV && i !== start) continue;
          const target = edgeTo[e] as number;
          if (target < 0) continue;
          const rank = Math.max(level, ranks[type] as number);
          const known = best[target] as number;
          if (known !== -1 && known <= rank) continue;
          best[target] = rank;
          (queues[rank] as number[]).push(target);
          const step = (multi ? rootNames[target] : undefined) ?? (nodes[target] as LockNode).name;
          (chainQueues[rank] as ChainLink[]).push(chainLink(step, via));
        }
      }
    }
  }
  if (folded)
    for (const i of folded.order) {
      const dependency = dependencyOf(
        i,
        folded.level[i] as number,
        folded.via[i] as ChainLink,
        folded.direct[i] === 1,
        folded.workspace[i],
      );
      (dependency.kind === 'dev' ? devOut : out).push(dependency);
    }
  for (const dependency of devOut) out.push(dependency);
  return folded ? { dependencies: out, dependencyCount: count } : { dependencies: out };

  function dependencyOf(
    i: number,
    level: number,
    via: ChainLink,
    direct: boolean,
    workspace: string | undefined,
  ): Dependency {
    const node = nodes[i] as LockNode;
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
        kind: kinds ? (KINDS[kinds[i] as number] as DependencyKind) : (node.kind ?? 'prod'),
        reach: reachOfRank(level),
        workspace,
      },
      via,
    );
  }
}

/**
 * The graph by position, for the walks: arrays indexed by a node's place in `nodes` cost a fraction of maps keyed by
 * node (a monorepo's lockfile is walked once per workspace: documenso's 20 walks went from 19 to 10 ms).
 */
interface Positions {
  nodes: LockNode[];
  index: Map<string, number>;
  /** Node i's edges are firstEdge[i] up to firstEdge[i + 1], in its order. */
  firstEdge: Int32Array;
  /** Each edge's target position, -1 when the lockfile lacks it. */
  edgeTo: Int32Array;
  /** Each edge's EdgeType as EDGE_CODE gives it. */
  edgeType: Uint8Array;
}

function positions(graph: LockGraph): Positions {
  // Nodes in id order, so each node's edges sorted by target position and then type are in the order ties between
  // equally short chains are broken by (lower node id first), with integer compares, and the reader's graph is left as
  // it was. Edges to a node the lockfile lacks sort first; the walks skip them.
  const ids = [...graph.nodes.keys()].sort();
  const nodes = new Array<LockNode>(ids.length);
  const index = new Map<string, number>();
  const firstEdge = new Int32Array(ids.length + 1);
  let edges = 0;
  for (let i = 0; i < ids.length; i++) {
    const node = graph.nodes.get(ids[i] as string) as LockNode;
    nodes[i] = node;
    index.set(ids[i] as string, i);
    firstEdge[i] = edges;
    edges += node.edges.length;
  }
  firstEdge[ids.length] = edges;
  const edgeTo = new Int32Array(edges);
  const edgeType = new Uint8Array(edges);
  for (let i = 0, e = 0; i < nodes.length; i++) {
    const first = e;
    for (const edge of (nodes[i] as LockNode).edges) {
      const to = index.get(edge.to) ?? -1;
      const type = EDGE_CODE[edge.type];
      // Insertion sort: a package's few edges mostly come in name order already.
      let at = e++;
      for (; at > first && isAfter(edgeTo[at - 1] as number, edgeType[at - 1] as number, to, type); at--) {
        edgeTo[at] = edgeTo[at - 1] as number;
        edgeType[at] = edgeType[at - 1] as number;
      }
      edgeTo[at] = to;
      edgeType[at] = type;
    }
  }
  return { nodes, index, firstEdge, edgeTo, edgeType };
}

/** Edge (to, type) goes after edge (otherTo, otherType): by target, then EDGE_CODE. */
function isAfter(to: number, type: number, otherTo: number, otherType: number): boolean {
  return to > otherTo || (to === otherTo && type > otherType);
}

/** What the walk keeps of each folded package, by position; `order` is the order they were first found. */
function foldedListing(n: number) {
  const listing = {
    order: [] as number[],
    level: new Int8Array(n).fill(-1),
    via: new Array<ChainLink | undefined>(n),
    workspace: new Array<string | undefined>(n),
    /** Declared by some workspace. */
    direct: new Uint8Array(n),
    found(i: number, level: number, via: ChainLink, workspace: string, direct: boolean) {
      const known = listing.level[i] as number;
      if (known === -1) listing.order.push(i);
      // Each walk drains its levels best first, but a later workspace may reach the package better.
      if (known === -1 || level < known) {
        listing.level[i] = level;
        listing.via[i] = via;
        listing.workspace[i] = workspace;
      }
      if (direct) listing.direct[i] = 1;
    },
  };
  return listing;
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
  const at = positions(graph);
  const codes = kindsFrom(at, graph.roots);
  return new Map([...at.index].map(([id, i]) => [id, KINDS[codes[i] as number] as DependencyKind]));
}

/** computeKinds by position: each node's kind as an index into KINDS. */
function kindsFrom({ nodes, index, firstEdge, edgeTo, edgeType }: Positions, roots: LockRoot[]): Uint8Array {
  // The three reachabilities in one walk, a bit each; a node is walked again only when it gains a bit (three times at
  // most).
  const reached = new Uint8Array(nodes.length);
  const stack: number[] = [];
  for (const root of roots) {
    const i = index.get(root.id);
    if (i === undefined) continue;
    reached[i] = ALL_PATHS;
    stack.push(i);
  }
  for (let i = stack.pop(); i !== undefined; i = stack.pop()) {
    const have = reached[i] as number;
    for (let e = firstEdge[i] as number, end = firstEdge[i + 1] as number; e < end; e++) {
      const passed = have & (PATHS_THROUGH[edgeType[e] as number] as number);
      const target = edgeTo[e] as number;
      if (passed === 0 || target < 0) continue;
      const known = reached[target] as number;
      if ((known | passed) === known) continue;
      reached[target] = known | passed;
      stack.push(target);
    }
  }
  const kinds = new Uint8Array(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    const paths = reached[i] as number;
    if (!(paths & NON_DEV)) kinds[i] = DEV_KIND;
    else if (!(paths & REQUIRED)) kinds[i] = OPTIONAL_KIND;
    else if (!(paths & NON_PEER)) kinds[i] = PEER_KIND;
    else kinds[i] = PROD_KIND;
  }
  return kinds;
}

const KINDS: DependencyKind[] = ['prod', 'optional', 'peer', 'dev'];
const [PROD_KIND, OPTIONAL_KIND, PEER_KIND, DEV_KIND] = [0, 1, 2, 3];

// computeKinds' paths from a root: without dev edges; through prod and peer edges only; through prod and optional only.
const NON_DEV = 1;
const REQUIRED = 2;
const NON_PEER = 4;
const ALL_PATHS = NON_DEV | REQUIRED | NON_PEER;
/** Indexed by EDGE_CODE: prod, optional, peer, dev. */
const PATHS_THROUGH = [ALL_PATHS, NON_DEV | NON_PEER, NON_DEV | REQUIRED, 0];
