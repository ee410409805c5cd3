// `via` chains shared between dependencies. A lockfile's packages form a tree of shortest chains: each chain is its
// parent's chain plus one step. Copying the parent's array for every package costs O(depth) each, so a 35,000-deep
// chain needed 600 million array slots; here a dependency deeper than a real tree ever goes holds one link (O(1)), and
// its `via` array is built only when something reads it (a report shows a few chains, not all of them).
import type { Dependency } from './model.js';

export interface ChainLink {
  readonly step: string;
  readonly parent: ChainLink | undefined;
  /** Steps from the root to here, this one included. */
  readonly length: number;
}

export function chainLink(step: string, parent?: ChainLink): ChainLink {
  return { step, parent, length: (parent?.length ?? 0) + 1 };
}

const LINKS = new WeakMap<object, ChainLink>();

/** Real lockfiles' chains are short (at most 12 steps in four public monorepos); past this a chain stays a link. */
const SHORT_CHAIN = 32;

/** The steps of a chain, root first. */
export function chainSteps(link: ChainLink): string[] {
  const steps = new Array<string>(link.length);
  let at: ChainLink | undefined = link;
  for (let i = link.length - 1; at; i--, at = at.parent) steps[i] = at.step;
  return steps;
}

/** Stands in for `via` in an object literal, so the property keeps its place among the others (JSON key order). */
export const CHAIN_PENDING: string[] = [];

/**
 * Gives `dependency` a `via` read from `link` on first access and kept from then on: an own, enumerable property, so
 * JSON output, spreads and comparisons see an ordinary array. Write `via: CHAIN_PENDING` where it belongs.
 */
export function withChain(dependency: Dependency, link: ChainLink): Dependency {
  // A short chain is cheaper as the array itself: a lazy property per dependency (and its WeakMap entry) cost more
  // than the copying it saves on the 15,000 dependencies of a real monorepo's lockfile.
  if (link.length <= SHORT_CHAIN) {
    dependency.via = chainSteps(link);
    return dependency;
  }
  LINKS.set(dependency, link);
  Object.defineProperty(dependency, 'via', LAZY_VIA);
  return dependency;
}

const LAZY_VIA: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: Dependency) {
    const link = LINKS.get(this) as ChainLink;
    return keep(this, chainSteps(link));
  },
  set(this: Dependency, value: string[]) {
    LINKS.delete(this);
    keep(this, value);
  },
};

function keep(dependency: Dependency, via: string[]): string[] {
  Object.defineProperty(dependency, 'via', { value: via, enumerable: true, writable: true, configurable: true });
  return via;
}

/** Steps in a dependency's chain, without building it. */
export function chainLength(dependency: Dependency): number {
  return LINKS.get(dependency)?.length ?? dependency.via.length;
}

/**
 * The first step of a dependency's chain (the root or workspace package it hangs from), without building the chain.
 * `memo` is kept by the caller, so asking for every package of a deep chain costs O(packages), not O(packages × depth).
 */
export function chainRoot(dependency: Dependency, memo: Map<ChainLink, string>): string | undefined {
  const link = LINKS.get(dependency);
  if (!link) return dependency.via[0];
  const path: ChainLink[] = [];
  let root: string | undefined;
  for (let at: ChainLink | undefined = link; at; at = at.parent) {
    root = memo.get(at);
    if (root !== undefined) break;
    path.push(at);
    if (!at.parent) root = at.step;
  }
  for (const at of path) memo.set(at, root as string);
  return root;
}

/**
 * Whether a step before the last one in the dependency's chain is one of `names`. `memo` is kept by the caller for
 * one set of names, so asking for every package of a chain costs O(packages), not O(packages × depth).
 */
export function reachedThrough(
  dependency: Dependency,
  names: ReadonlySet<string>,
  memo: Map<ChainLink, boolean>,
): boolean {
  const link = LINKS.get(dependency);
  if (!link) return dependency.via.slice(0, -1).some((name) => names.has(name));
  // Walk up to the first link whose answer is known, then fill in the answers on the way back down.
  const path: ChainLink[] = [];
  let known = false;
  for (let at = link.parent; at; at = at.parent) {
    const cached = memo.get(at);
    if (cached !== undefined) {
      known = cached;
      break;
    }
    path.push(at);
  }
  for (let i = path.length - 1; i >= 0; i--) {
    const at = path[i] as ChainLink;
    known = known || names.has(at.step);
    memo.set(at, known);
  }
  return known;
}
