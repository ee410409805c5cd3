// Which line of which input made a finding ours: the evidence a SARIF result or a GitHub annotation points at.
import type { CheckReport } from '../check.js';
import { buildMatcher } from '../catalog/matcher.js';
import type { Dependency, Finding } from '../model.js';

export interface FindingEvidence {
  /** The dependency the finding is annotated at (an S3 incident lands on `@aws-sdk/client-s3`, not on every AWS SDK). */
  primary?: Dependency;
  /** The rest of the evidence for the same provider. */
  related: Dependency[];
}

/**
 * Builds the locator once per report. Exposures do not record which piece of evidence gave which component,
 * so the catalog's matcher (a pure function of the catalog already in the report) is asked again.
 */
export function findingLocator(report: CheckReport): (finding: Finding) => FindingEvidence {
  const matcher = buildMatcher(report.catalog);
  const componentsOf = new Map<Dependency, Set<string>>();
  const components = (dependency: Dependency, provider: string) => {
    let names = componentsOf.get(dependency);
    if (!names) {
      names = new Set(matcherComponents(matcher.match(dependency), provider));
      componentsOf.set(dependency, names);
    }
    return names;
  };

  return (finding) => {
    const exposure = report.exposures.find((candidate) => candidate.provider === finding.provider && candidate.through === finding.through);
    const evidence = [...(exposure?.evidence ?? [])].sort(byPreference);
    if (evidence.length === 0) return { related: [] };
    const touched = new Set(finding.components.map((name) => name.toLowerCase()));
    // Fourth-party findings point at the evidence for the provider the stack really uses.
    const exact = finding.through ? undefined : evidence.find((dependency) => [...components(dependency, finding.provider)].some((name) => touched.has(name)));
    const primary = exact ?? evidence[0];
    return { primary, related: evidence.filter((dependency) => dependency !== primary) };
  };
}

function matcherComponents(hits: Array<{ provider: string; component?: { name: string } }>, provider: string): string[] {
  return hits.filter((hit) => hit.provider === provider && hit.component).map((hit) => (hit.component?.name ?? '').toLowerCase());
}

/** Direct dependencies with a line first, then by file and line, so the choice is stable from run to run. */
function byPreference(a: Dependency, b: Dependency): number {
  const rank = (dependency: Dependency) => (dependency.direct ? 0 : 2) + (dependency.line ? 0 : 1);
  return rank(a) - rank(b) || a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0);
}

/** `package.json:11`, or just the file when the line is unknown. */
export function where(dependency: Dependency): string {
  return `${dependency.file}${dependency.line ? `:${dependency.line}` : ''}`;
}
