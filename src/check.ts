// `downstack check` as a library call: inputs → dependencies → exposures → findings → replay plan.
import { builtInCatalog, type Catalog } from './catalog/catalog.js';
import { notInCatalog } from './catalog/candidates.js';
import { buildMatcher, exposuresFor, type OwnProvider } from './catalog/matcher.js';
import type { DnsStage, DnsSummary } from './dns/stage.js';
import { findIncidents } from './incidents/findings.js';
import { HISTORY_SOURCE, type HistoryWindow } from './incidents/history.js';
import { leadResolver, loadLeadTable } from './incidents/lead.js';
import type { PublishedSource } from './incidents/published.js';
import { IncidentIndex, type ProviderIncidents } from './incidents/store.js';
import type { Dependency, Exposure, Finding, Incident, InputProblem, InputResult, ReplayBand } from './model.js';
import { knownJobs, withRuns, type KnownJob } from './jobs/runs.js';
import { SNAPSHOT_DIR } from './paths.js';
import { scannedRoot } from './report/display-path.js';
import { type ReachSetting, withinReach } from './reach.js';
import { mergeWindows } from './replay.js';
import { ownPackages, scanPaths, type ScanOptions } from './scan.js';
import { byText } from './text-order.js';

export interface CheckOptions extends ScanOptions {
  paths: string[];
  indexDir: string;
  since: Date;
  until: Date;
  now: Date;
  catalog?: Catalog;
  /** `dev` leaves dev-only dependencies out, like `npm --omit dev`. */
  omit?: Array<'dev'>;
  includeMaintenance?: boolean;
  /** The snapshot under the index: the embedded one by default, null for none (`--no-snapshot`). */
  snapshotDir?: string | null;
  /** The bundled history under the snapshot: the shipped one by default, null for none (with `--no-snapshot`). */
  historyDir?: string | null;
  /** Looks up the DNS of domains that name no provider; without it they are matched by name only. */
  dns?: DnsStage;
  /** Where incidents come from instead of `indexDir` (a published index, `--index-url`). */
  incidents?: IncidentReader;
  /** `--reach`: which findings count (the rest go to `beyondReach`); `direct` by default. */
  reach?: ReachSetting;
  /** `--lead`: minutes to start a replay before a first post (0 turns it off); the measured figures by default. */
  leadMinutes?: number;
}

/** Anything that gives a provider's incidents with their provenance: the local index, a published one. */
export interface IncidentReader {
  read(provider: string, window?: HistoryWindow): Promise<ProviderIncidents>;
  /** What answered, for a reader that can answer from more than one place. */
  describe?(): PublishedSource;
}

export interface IndexSummary {
  dir: string;
  /** Set when a published index (`--index-url`) was asked: what answered. */
  published?: PublishedSource;
  /** Providers of the stack that were ever synced, with their oldest sync time. */
  synced: number;
  oldestSync?: string;
  snapshotIncidents: number;
  newestSnapshotIncident?: string;
  /** Incidents of the stack's providers from the bundled history, and the span they cover. */
  historyIncidents: number;
  historySpan?: { from: string; to: string };
  problems: string[];
}

export interface CheckReport {
  generatedAt: string;
  window: { since: string; until: string };
  /**
   * What each input gave. A monorepo lockfile's packages the catalog cannot name are listed once, not once per
   * workspace (ParseOptions.perWorkspace); `dependencyCount` still counts them per workspace.
   */
  inputs: InputResult[];
  /** Paths that could not be read at all. */
  errors: InputProblem[];
  /** The folder the scanned paths share (absolute): the human-facing reports show files relative to it. */
  root?: string;
  exposures: Exposure[];
  /** Providers the repository is the vendor of (it publishes packages in their scope): left out of the stack. */
  ownProviders: OwnProvider[];
  unmatched: Dependency[];
  /** Unmatched dependencies that look like a SaaS SDK or a Terraform provider: gaps in the catalog. */
  notInCatalog: string[];
  findings: Finding[];
  /** Findings of providers the stack reaches in a way `reach` leaves out: shown apart, never replayed or gated on. */
  beyondReach: Finding[];
  /** The `--reach` setting the findings were split by. */
  reach: ReachSetting;
  /** Merged replay windows, each with the runs of scheduled jobs inside it. */
  replay: ReplayBand[];
  /** Every scheduled job found, with the providers it runs on or reaches. */
  jobs: KnownJob[];
  index: IndexSummary;
  /** When nothing is in the window: the stack providers' most recent incidents, so an empty answer is not mistaken for a broken one. */
  recent: Incident[];
  catalog: Catalog;
  /** What DNS resolution did, when some domain needed it. */
  dns?: DnsSummary;
}

export async function runCheck(options: CheckOptions): Promise<CheckReport> {
  const catalog = options.catalog ?? builtInCatalog() ?? (await import('./catalog/loader.js')).loadCatalog();
  const matcher = buildMatcher(catalog);
  // A monorepo's lockfile reaches most packages from every workspace (documenso: 14,967 dependencies of 2,382
  // packages); only what the catalog can name is evidence, each workspace's own, and the rest is counted and listed once.
  const scan = await scanPaths(options.paths, {
    ...options,
    perWorkspace: (ecosystem, name) => matcher.canMatch(ecosystem, name),
  });
  const omitDev = options.omit?.includes('dev') ?? false;
  const dependencies = scan.inputs
    .flatMap((input) => input.dependencies)
    .filter((dependency) => !(omitDev && dependency.kind === 'dev'));

  const resolved = options.dns ? await options.dns.resolve(dependencies, matcher) : { found: [], problems: [] };
  const errors = [...scan.errors, ...attachProblems(scan.inputs, resolved.problems)];
  const { exposures, unmatched, own } = exposuresFor(
    [...dependencies, ...resolved.found],
    matcher,
    catalog,
    ownPackages(scan.inputs),
  );
  const jobs = knownJobs(
    scan.inputs.flatMap((input) => input.jobs ?? []),
    matcher,
    catalog,
  );
  const index =
    options.incidents ??
    (options.historyDir !== undefined
      ? new IncidentIndex(
          options.indexDir,
          options.snapshotDir === undefined ? SNAPSHOT_DIR : options.snapshotDir,
          options.historyDir,
        )
      : options.snapshotDir === undefined
        ? new IncidentIndex(options.indexDir)
        : new IncidentIndex(options.indexDir, options.snapshotDir));
  const providerIds = [...new Set(exposures.map((exposure) => exposure.provider))];
  // The window's part of the history, and enough before it for the most recent incidents shown when it is quiet.
  const window = { since: options.since, until: options.until, context: RECENT };
  const loaded = await Promise.all(providerIds.map((id) => index.read(id, window)));
  const incidents = new Map(loaded.map((entry) => [entry.provider, entry.incidents]));

  const leadFor = leadResolver(
    catalog,
    options.leadMinutes === undefined ? await loadLeadTable() : undefined,
    options.leadMinutes,
  );
  const reach = options.reach ?? 'direct';
  const found = findIncidents(exposures, incidents, catalog, { ...options, leadFor });
  const findings = found.filter((finding) => withinReach(finding.reach, reach));
  const beyondReach = found.filter((finding) => !withinReach(finding.reach, reach));
  const recent = findings.length > 0 ? [] : mostRecent(loaded, options.until, RECENT);
  return {
    generatedAt: options.now.toISOString(),
    window: { since: options.since.toISOString(), until: options.until.toISOString() },
    inputs: scan.inputs,
    errors,
    root: scannedRoot(options.paths),
    exposures,
    ownProviders: own,
    unmatched,
    notInCatalog: notInCatalog(unmatched),
    findings,
    beyondReach,
    reach,
    replay: withRuns(mergeWindows(findings), jobs, options.now),
    jobs,
    index: {
      ...summarize(options.indexDir, loaded),
      ...(options.incidents?.describe ? { published: options.incidents.describe() } : {}),
    },
    recent,
    catalog,
    ...(options.dns?.summary() ? { dns: options.dns.summary() } : {}),
  };
}

/** DNS notes belong to the input that listed the name; those that fit no input are returned. */
export function attachProblems(inputs: InputResult[], problems: InputProblem[]): InputProblem[] {
  const byFile = new Map(inputs.map((input) => [input.file, input]));
  const rest: InputProblem[] = [];
  for (const problem of problems) {
    const input = byFile.get(problem.file);
    if (input) input.errors.push(problem);
    else rest.push(problem);
  }
  return rest;
}

/** How many incidents a quiet window shows for context. */
const RECENT = 5;

function mostRecent(loaded: ProviderIncidents[], until: Date, count: number): Incident[] {
  const limit = until.toISOString();
  return loaded
    .flatMap((entry) => entry.incidents)
    .filter((incident) => incident.kind !== 'maintenance' && incident.startedAt <= limit)
    .sort((a, b) => byText(b.startedAt, a.startedAt))
    .slice(0, count);
}

function summarize(dir: string, loaded: ProviderIncidents[]): IndexSummary {
  const syncTimes = loaded
    .map((entry) => entry.syncedAt)
    .filter((time): time is string => time !== undefined)
    .sort();
  const snapshotTimes = loaded
    .flatMap((entry) =>
      entry.incidents.filter((incident) => incident.source === 'embedded').map((incident) => incident.startedAt),
    )
    .sort();
  // The whole history of the stack's providers as its manifest counts it, not only the part the window read.
  const historyTimes = loaded
    .flatMap((entry) =>
      entry.historyExtent
        ? [entry.historyExtent.fromYear, entry.historyExtent.toYear]
        : entry.incidents
            .filter((incident) => incident.source === HISTORY_SOURCE)
            .map((incident) => incident.startedAt),
    )
    .sort();
  return {
    dir,
    synced: syncTimes.length,
    ...(syncTimes[0] ? { oldestSync: syncTimes[0] } : {}),
    snapshotIncidents: loaded.reduce((sum, entry) => sum + entry.fromSnapshot, 0),
    ...(snapshotTimes.length ? { newestSnapshotIncident: snapshotTimes.at(-1) } : {}),
    historyIncidents: loaded.reduce((sum, entry) => sum + (entry.historyExtent?.incidents ?? entry.fromHistory), 0),
    ...(historyTimes.length
      ? { historySpan: { from: historyTimes[0] as string, to: historyTimes.at(-1) as string } }
      : {}),
    problems: loaded.flatMap((entry) => entry.problems),
  };
}
