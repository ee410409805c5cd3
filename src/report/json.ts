// `--format json`: the published contract, schema/check-report.schema.json (docs/json.md explains each field). Additive
// fields keep CHECK_SCHEMA_VERSION; anything else needs a bump. A field added here fails the contract test until the
// schema names it.
import type { CheckReport } from '../check.js';
import type { Finding } from '../model.js';

export const CHECK_SCHEMA_VERSION = 1;

export function checkToJson(report: CheckReport): object {
  return {
    schemaVersion: CHECK_SCHEMA_VERSION,
    generatedAt: report.generatedAt,
    window: report.window,
    reach: report.reach,
    inputs: report.inputs.map((input) => ({
      file: input.file,
      kind: input.kind,
      dependencies: input.dependencies.length,
      ...(input.jobs ? { jobs: input.jobs.length } : {}),
      errors: input.errors,
    })),
    providers: report.exposures.map((exposure) => ({
      id: exposure.provider,
      name: report.catalog.providers.get(exposure.provider)?.name ?? exposure.provider,
      components: exposure.components.map(({ name, region }) => (region ? { name, region } : { name })),
      evidence: exposure.evidence,
      ...(exposure.through ? { through: exposure.through } : {}),
      devOnly: exposure.devOnly,
      reach: exposure.reach,
      ...(exposure.wholeProvider ? { wholeProvider: true } : {}),
      ...(exposure.helpersOnly ? { helpersOnly: true } : {}),
    })),
    findings: report.findings.map(findingToJson),
    beyondReach: report.beyondReach.map(findingToJson),
    replay: report.replay.map((band) => ({ ...band, runs: band.runs ?? [] })),
    jobs: report.jobs.map(({ job, providers }) => ({
      name: job.name,
      kind: job.kind,
      file: job.file,
      ...(job.line ? { line: job.line } : {}),
      schedule: job.schedule,
      timeZone: job.timeZone,
      ...(job.startsAt ? { startsAt: job.startsAt } : {}),
      providers,
    })),
    notInCatalog: report.notInCatalog,
    index: {
      dir: report.index.dir,
      synced: report.index.synced,
      ...(report.index.oldestSync ? { oldestSync: report.index.oldestSync } : {}),
      snapshotIncidents: report.index.snapshotIncidents,
      historyIncidents: report.index.historyIncidents,
      ...(report.index.published
        ? {
            published: {
              url: report.index.published.url,
              state: report.index.published.state,
              ...(report.index.published.publishedAt ? { publishedAt: report.index.published.publishedAt } : {}),
              ...(report.index.published.reason ? { reason: report.index.published.reason } : {}),
              fetched: report.index.published.fetched,
              cached: report.index.published.cached,
              refused: report.index.published.refused,
            },
          }
        : {}),
    },
    ...(report.dns ? { dns: report.dns } : {}),
    errors: [...report.errors, ...report.index.problems.map((message) => ({ file: report.index.dir, message }))],
  };
}

function findingToJson(finding: Finding): object {
  return {
    provider: finding.provider,
    incident: {
      id: finding.incident.id,
      title: finding.incident.title,
      url: finding.incident.url,
      status: finding.incident.status,
      impact: finding.incident.impact,
      startedAt: finding.incident.startedAt,
      resolvedAt: finding.incident.resolvedAt,
      ...(finding.incident.timePrecision ? { timePrecision: finding.incident.timePrecision } : {}),
    },
    components: finding.components,
    active: finding.active,
    replay: {
      from: finding.replay.from,
      to: finding.replay.to,
      ...(finding.replay.lead ? { lead: finding.replay.lead } : {}),
    },
    confidence: finding.confidence,
    ...(finding.through ? { through: finding.through } : {}),
    devOnly: finding.devOnly,
    reach: finding.reach,
  };
}
