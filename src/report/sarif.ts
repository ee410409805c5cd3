// `--format sarif`: SARIF 2.1.0 (https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html), one result per finding.
import { isAbsolute, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CheckReport } from '../check.js';
import { describeExpired } from '../config/ignores.js';
import type { Dependency, Finding } from '../model.js';
import { cleanLine, cleanText, jsonDocument, type SafeText } from '../sanitize.js';
import { formatUtc } from '../time.js';
import { VERSION } from '../version.js';
import { findingLocator } from './locate.js';
import { EMPTY_NOTES, providerName, replayLabel, touchedLabel, type RenderOptions } from './shared.js';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

const RULES = [
  {
    id: 'downstack/open-incident',
    name: 'OpenProviderIncident',
    shortDescription: { text: 'An open provider incident touches a component this stack uses.' },
    fullDescription: {
      text: 'A provider this code depends on has an incident that is not resolved yet, on a component the dependency maps to.',
    },
    help: {
      text: 'Check whether you use the component; hold or watch the deploy until the incident resolves; then confirm retries, queues and scheduled jobs caught up and replay the failed window.',
    },
    defaultConfiguration: { level: 'error' },
  },
  {
    id: 'downstack/incident-in-window',
    name: 'ProviderIncidentInWindow',
    shortDescription: { text: 'A provider incident in the checked window touched a component this stack uses.' },
    fullDescription: {
      text: 'A resolved provider incident overlapped the checked window and touched a component this dependency maps to.',
    },
    help: {
      text: 'Check whether you use the component, confirm retries, queues and scheduled jobs caught up after the incident, and replay work that failed in its window.',
    },
    defaultConfiguration: { level: 'warning' },
  },
] as const;

export function renderSarif(report: CheckReport, options: RenderOptions): SafeText {
  return jsonDocument(checkToSarif(report, options));
}

export function checkToSarif(report: CheckReport, options: RenderOptions): object {
  const notes = options.notes ?? EMPTY_NOTES;
  const locate = findingLocator(report);
  const result = (finding: Finding, suppression?: { reason: string; where: string }) => {
    const ruleIndex = finding.active ? 0 : 1;
    const { primary, related } = locate(finding);
    return {
      ruleId: RULES[ruleIndex].id,
      ruleIndex,
      level: RULES[ruleIndex].defaultConfiguration.level,
      message: { text: message(report, finding, primary, options.now) },
      locations: primary ? [location(primary)] : [],
      ...(related.length > 0
        ? {
            relatedLocations: related.slice(0, 20).map((dependency, index) => ({
              id: index + 1,
              ...location(dependency),
              message: { text: `also maps to ${providerName(report, finding.provider)}: ${dependency.name}` },
            })),
          }
        : {}),
      // Stable across runs, so code scanning keeps one alert per incident instead of opening a new one each time.
      partialFingerprints: {
        'downstackFinding/v1': [finding.provider, finding.incident.id, finding.through ?? ''].join('/'),
      },
      ...(suppression
        ? {
            suppressions: [
              { kind: 'external', status: 'accepted', justification: `${suppression.reason} (${suppression.where})` },
            ],
          }
        : {}),
      properties: {
        provider: finding.provider,
        incidentId: finding.incident.id,
        incidentUrl: finding.incident.url,
        components: finding.components,
        confidence: finding.confidence,
        replay: finding.replay,
        ...(finding.through ? { through: finding.through } : {}),
      },
    };
  };

  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'downstack',
            version: VERSION,
            informationUri: 'https://www.npmjs.com/package/downstack',
            rules: RULES,
          },
        },
        invocations: [
          {
            executionSuccessful: true,
            toolExecutionNotifications: [
              ...notes.expired.map((expired) => ({
                level: 'warning',
                message: { text: cleanLine(describeExpired(expired), 600) },
                locations: [location({ file: expired.rule.file, line: expired.rule.line })],
              })),
              ...report.errors.map((problem) => ({
                level: 'error',
                message: { text: cleanLine(problem.message, 600) },
                locations: [location(problem)],
              })),
            ],
          },
        ],
        results: [
          ...report.findings.map((finding) => result(finding)),
          ...notes.ignored.map(({ finding, rule }) =>
            result(finding, {
              reason: cleanLine(rule.reason, 300),
              where: `${rule.file}:${rule.line}, until ${rule.expires}`,
            }),
          ),
        ],
        properties: { window: report.window, replay: report.replay },
      },
    ],
  };
}

function message(report: CheckReport, finding: Finding, evidence: Dependency | undefined, now: Date): string {
  const incident = finding.incident;
  const state = finding.active
    ? 'open incident'
    : `incident (${incident.status}, started ${formatUtc(incident.startedAt)})`;
  const via = evidence ? ` You depend on it through ${evidence.name}.` : '';
  const possibly =
    finding.confidence === 'possibly' ? ' Possibly: the incident is regional and your region is unknown.' : '';
  const url = incident.url ? ` ${cleanLine(incident.url, 300)}` : '';
  return cleanText(
    `${providerName(report, finding.provider)} ${state} "${cleanLine(incident.title, 200)}" touched ${touchedLabel(finding)}.${via}${possibly} Replay window: ${replayLabel(finding, now)}.${url}`,
    2000,
  );
}

/** A physical location; SARIF wants URIs, so relative paths keep forward slashes and absolute ones become file: URLs. */
function location(at: { file: string; line?: number }) {
  const uri = isAbsolute(at.file) ? pathToFileURL(at.file).href : encodeURI(at.file.split(sep).join('/'));
  return { physicalLocation: { artifactLocation: { uri }, region: { startLine: at.line ?? 1 } } };
}
