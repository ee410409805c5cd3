// How each dependency, exposure and finding reaches the stack (issue 11): the best path wins, so a package declared
// by the repository stays direct even when a library also pulls it in.
import type { Dependency, Reach } from './model.js';

/** What `--reach` lets into findings, replay windows and gates: `direct` by default, `all` also optional and dev. */
export type ReachSetting = 'direct' | 'transitive' | 'all';

export const REACH_SETTINGS: readonly ReachSetting[] = ['direct', 'transitive', 'all'];

const RANK: Record<Reach, number> = { direct: 0, transitive: 1, optional: 2, dev: 3 };
const BY_RANK: readonly Reach[] = ['direct', 'transitive', 'optional', 'dev'];

export function reachRank(reach: Reach): number {
  return RANK[reach];
}

export function reachOfRank(rank: number): Reach {
  return BY_RANK[rank] as Reach;
}

/** The better of two reaches (`direct` beats everything). */
export function betterReach(a: Reach | undefined, b: Reach): Reach {
  return a === undefined || RANK[b] < RANK[a] ? b : a;
}

const PACKAGE_ECOSYSTEMS = new Set(['npm', 'pypi', 'go', 'rubygems', 'maven', 'nuget', 'composer', 'cargo']);

/**
 * A dependency's reach: what a lockfile graph said, else what the reader knew. A package a manifest declares is
 * direct (dev when declared as such); one a reader marks as not declared (go.mod `// indirect`, a Pipfile.lock entry
 * the Pipfile does not name) is transitive. Terraform, domains, images and CI steps are the repository's own.
 */
export function reachOf(dependency: Dependency): Reach {
  if (dependency.reach) return dependency.reach;
  if (!PACKAGE_ECOSYSTEMS.has(dependency.ecosystem)) return 'direct';
  if (dependency.kind === 'dev') return 'dev';
  if (dependency.direct) return 'direct';
  return dependency.kind === 'optional' || dependency.kind === 'peer' ? 'optional' : 'transitive';
}

/** Whether a reach is inside what the setting lets into findings. */
export function withinReach(reach: Reach, setting: ReachSetting): boolean {
  if (setting === 'all') return true;
  if (setting === 'transitive') return reach === 'direct' || reach === 'transitive';
  return reach === 'direct';
}
