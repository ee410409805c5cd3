// `--format gitlab`: a GitLab Code Quality report (https://docs.gitlab.com/ci/testing/code_quality/), the JSON array
// a CI job publishes as `artifacts: reports: codequality`; merge requests then show each finding on the line that
// declares the affected dependency. GitLab reads description, check_name, fingerprint, severity and
// location{path, lines{begin}}, and keeps one entry per fingerprint.
import { createHash } from 'node:crypto';
import type { CheckReport } from '../check.js';
import { describeExpired } from '../config/ignores.js';
import type { Finding } from '../model.js';
import { cleanLine, jsonDocument, type SafeText } from '../sanitize.js';
import { annotationPath } from './github.js';
import { findingLocator } from './locate.js';
import { EMPTY_NOTES, providerName, replayLabel, touchedLabel, type RenderOptions } from './shared.js';

type Severity = 'info' | 'minor' | 'major' | 'critical' | 'blocker';

interface CodeQualityIssue {
  description: string;
  check_name: string;
  fingerprint: string;
  severity: Severity;
  location: { path: string; lines: { begin: number } };
}

export function renderGitlab(report: CheckReport, options: RenderOptions): SafeText {
  return jsonDocument(checkToCodeQuality(report, options));
}

export function checkToCodeQuality(report: CheckReport, options: RenderOptions): CodeQualityIssue[] {
  const locate = findingLocator(report);
  const fallback = report.inputs[0]?.file ?? '.';
  const issue = (finding: Finding): CodeQualityIssue => {
    const { primary } = locate(finding);
    const name = providerName(report, finding.provider);
    const possibly = finding.confidence === 'possibly' ? ' (possibly: regional incident, your region is unknown)' : '';
    return {
      description: cleanLine(
        `${name}: ${finding.active ? 'open incident' : 'incident'} on ${touchedLabel(finding)} — ${finding.incident.title}${possibly}. Replay window: ${replayLabel(finding, options.now)}`,
        1000,
      ),
      check_name: finding.active ? 'downstack/open-incident' : 'downstack/incident-in-window',
      // Stable across runs (one entry per incident, not one per pipeline), and told apart per fourth party.
      fingerprint: fingerprint([finding.provider, finding.incident.id, finding.through ?? '']),
      severity: finding.active ? 'critical' : 'minor',
      location: { path: annotationPath(primary?.file ?? fallback), lines: { begin: primary?.line ?? 1 } },
    };
  };
  const issues = report.findings.map(issue);
  for (const expired of (options.notes ?? EMPTY_NOTES).expired)
    issues.push({
      description: cleanLine(describeExpired(expired), 1000),
      check_name: 'downstack/expired-ignore',
      fingerprint: fingerprint(['expired', expired.rule.provider, expired.rule.incident ?? '', expired.rule.expires]),
      severity: 'minor',
      location: { path: annotationPath(expired.rule.file), lines: { begin: expired.rule.line } },
    });
  for (const problem of report.errors)
    issues.push({
      description: cleanLine(`input not read: ${problem.message}`, 1000),
      check_name: 'downstack/input-not-read',
      fingerprint: fingerprint(['unread', problem.file]),
      severity: 'major',
      location: { path: annotationPath(problem.file), lines: { begin: problem.line ?? 1 } },
    });
  return issues;
}

function fingerprint(parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32);
}
