// Which line of which input made a finding ours: the evidence a SARIF result or a GitHub annotation points at.
import type { CheckReport } from '../check.js';
import type { Dependency, Finding } from '../model.js';

export interface FindingEvidence {
  /** The dependency the finding is annotated at (an S3 incident lands on `@aws-sdk/client-s3`, not on every AWS SDK). */
  primary?: Dependency;
  /** The rest of the evidence for the same provider. */
  related: Dependency[];
}

/** Builds the locator once per report, from the evidence the matcher recorded for each exposed component. */
export function findingLocator(report: CheckReport): (finding: Finding) => FindingEvidence {
  return (finding) => {
    const exposure = report.exposures.find(
      (candidate) => candidate.provider === finding.provider && candidate.through === finding.through,
    );
    const evidence = [...(exposure?.evidence ?? [])].sort(byPreference);
    if (evidence.length === 0) return { related: [] };
    const touched = new Set(finding.components.map((name) => name.toLowerCase()));
    // Fourth-party findings point at the evidence for the provider the stack really uses.
    const componentEvidence = finding.through
      ? []
      : (exposure?.components ?? [])
          .filter((component) => touched.has(component.name.toLowerCase()))
          .flatMap((component) => component.evidence ?? []);
    const primary = [...componentEvidence].sort(byPreference)[0] ?? evidence[0];
    return { primary, related: evidence.filter((dependency) => dependency !== primary) };
  };
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
