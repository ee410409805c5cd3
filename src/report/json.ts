// `--format json`: the published contract, schema/check-report.schema.json (docs/json.md explains each field). Additive
// fields keep CHECK_SCHEMA_VERSION; anything else needs a bump. A field added here fails the contract test until the
// schema names it.
import type { CheckReport } from '../check.js';
import { reachRank } from '../reach.js';
import { dependencyCount, type Exposure, type Finding } from '../model.js';

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
      dependencies: dependencyCount(input),
      ...(input.jobs ? { jobs: input.jobs.length } : {}),
      ...(input.workspaceRoot ? { workspaceRoot: input.workspaceRoot } : {}),
      errors: input.errors,
    })),
    providers: onePerProvider(report.exposures).map(({ exposure, alsoThrough }) => ({
      id: exposure.provider,
      name: report.catalog.providers.get(exposure.provider)?.name ?? exposure.provider,
      components: componentsJson(exposure),
      evidence: exposure.evidence,
      ...(exposure.through ? { through: exposure.through } : {}),
      ...(alsoThrough.length > 0
        ? {
            alsoThrough: alsoThrough.map((other) => ({
              through: other.through,
              // A provider runs on named components, never in a region of the stack's choosing.
              components: other.components.map(({ name }) => ({ name })),
              reach: other.reach,
            })),
          }
        : {}),
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
    ownProviders: report.ownProviders.map(({ provider, scope, workspace }) => ({
      id: provider,
      name: report.catalog.providers.get(provider)?.name ?? provider,
      scope,
      workspace,
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

const componentsJson = (exposure: Exposure) =>
  exposure.components.map(({ name, region }) => (region ? { name, region } : { name }));

/** The route an entry is made of: the stack's own exposure, else the upstream route of the best reach. */
function better(a: Exposure, b: Exposure): boolean {
  if (Boolean(a.through) !== Boolean(b.through)) return !a.through;
  return reachRank(a.reach) < reachRank(b.reach);
}

/**
 * One entry per provider. A provider the stack uses itself and also through another that runs on it (AWS from
 * go.mod, and Quay.io runs on AWS's RDS) is one exposure of its own plus one per upstream: the entry is the stack's
 * own exposure (or, with none, the upstream route of the best reach), and the upstream routes are listed in
 * `alsoThrough`, so their components never pass for the stack's own.
 */
function onePerProvider(exposures: Exposure[]): Array<{ exposure: Exposure; alsoThrough: Exposure[] }> {
  const entries = new Map<string, { exposure: Exposure; alsoThrough: Exposure[] }>();
  for (const exposure of exposures) {
    const entry = entries.get(exposure.provider);
    if (!entry) entries.set(exposure.provider, { exposure, alsoThrough: [] });
    else if (better(exposure, entry.exposure)) {
      entry.alsoThrough.push(entry.exposure);
      entry.exposure = exposure;
    } else entry.alsoThrough.push(exposure);
  }
  return [...entries.values()];
}
