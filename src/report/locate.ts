// Which line of which input made a finding ours: the evidence a SARIF result or a GitHub annotation points at.
import type { CheckReport } from '../check.js';
import type { Dependency, DnsRecord, Finding } from '../model.js';
import { cleanLine } from '../sanitize.js';
import { byName } from '../text-order.js';

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
  return rank(a) - rank(b) || byName(a.file, b.file) || (a.line ?? 0) - (b.line ?? 0);
}

/** `package.json:11`, or just the file when the line is unknown; `show` says how a report writes the file. */
export function where(dependency: Dependency, show: (file: string) => string = (file) => file): string {
  return `${show(dependency.file)}${dependency.line ? `:${dependency.line}` : ''}`;
}

/**
 * `→ CNAME cname.vercel-dns.com`, a chain as `→ CNAME a → CNAME b → A 52.1.2.3`: the DNS answers that led from a
 * domain to its provider. Each name is shown where it is not the previous answer (an SPF include read one level down).
 * The answers are remote text, so each is cleaned.
 */
export function dnsChainText(records: DnsRecord[]): string {
  let previous: string | undefined;
  const parts = records.map((record, index) => {
    const from = index > 0 && record.name !== previous ? `${cleanLine(record.name, 80)} ` : '';
    previous = record.value.replace(/^(include:|redirect=)/, '');
    return `→ ${from}${record.type} ${cleanLine(record.value, 100)}`;
  });
  return parts.join(' ');
}

/** `domains.txt:3 www.acme.com → CNAME cname.vercel-dns.com`: where a dependency was found and what it is. */
export function evidenceText(dependency: Dependency, show?: (file: string) => string): string {
  const dns = dependency.dns ? ` ${dnsChainText(dependency.dns)}` : '';
  return `${where(dependency, show)} ${cleanLine(dependency.name, 120)}${dns}`;
}
