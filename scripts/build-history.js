// Maintainer script (`npm run build:history`): derives the bundled history (history/<provider>/<year>.json) from public
// archives of status pages, reading each through downstack's own reader layer, and measures the lead between a
// stated impact start and the page's first post per platform (history/leads.json).
//
//   npm run build:history -- --mirrors DIR [--out history] [--update]
//
// DIR holds a bare git mirror of every repository in scripts/history/sources.json, as `DIR/<owner>+<name>/repo`,
// `DIR/<owner>+<name>` or `DIR/<owner>/<name>.git` (`git clone --mirror https://github.com/<owner>/<name>`). Each
// source is read at its pinned commit, so the same mirrors give byte-identical output; --update pins each source to
// the commit its ref points at now. Only facts are written: times, components, regions, impact, status and link, with
// titles and summaries written from those facts. Incidents the hand-checked snapshot already tells are left out.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalog } from '../dist/catalog/loader.js';
import { HISTORY_SCHEMA_VERSION, historyFiles } from '../dist/incidents/history.js';
import {
  leadSample,
  measureLead,
  precisionOf,
  toHistoryRecord,
  toldBySnapshot,
} from '../dist/incidents/history-facts.js';
import { firstPost } from '../dist/incidents/lead.js';
import { SNAPSHOT_DIR } from '../dist/paths.js';
import { resolveCommit } from './history/git.js';
import { awsDashboard, cloudHistoric, gcpIncidents, githubFeed, githubRecords } from './history/sources.js';

const SOURCES_FILE = new URL('./history/sources.json', import.meta.url);
const READ = {
  'github-records': githubRecords,
  'github-feed': githubFeed,
  gcp: gcpIncidents,
  'aws-dashboard': awsDashboard,
  'azure-reviews': (source, dir, catalog, stats) => cloudHistoric(source, dir, catalog, stats, 'azure'),
  'aws-health': (source, dir, catalog, stats) => cloudHistoric(source, dir, catalog, stats, 'aws'),
};
/** Which providers' history measures which platform's lead, in words for the docs and the reports. */
const MEASURED_ON = { statuspage: 'GitHub', gcp: 'Google Cloud', aws: 'AWS' };

function parseArgs(argv) {
  const options = { out: 'history', update: false, mirrors: process.env.DOWNSTACK_HISTORY_MIRRORS };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--update') options.update = true;
    else if (flag === '--mirrors' || flag === '--out' || flag === '--sources') {
      const value = argv[++i];
      if (value === undefined) throw new Error(`${flag} needs a value`);
      options[flag.slice(2)] = value;
    } else throw new Error(`unknown argument ${flag}`);
  }
  if (!options.mirrors) throw new Error('--mirrors DIR is required (a directory of bare git mirrors of the sources)');
  return options;
}

function gitDirOf(mirrors, repo) {
  const [owner, name] = repo.split('/');
  const candidates = [
    join(mirrors, `${owner}+${name}`, 'repo'),
    join(mirrors, `${owner}+${name}`),
    join(mirrors, owner, `${name}.git`),
  ];
  const found = candidates.find((dir) => existsSync(join(dir, 'HEAD')));
  if (!found) throw new Error(`no mirror of ${repo} under ${mirrors} (tried ${candidates.join(', ')})`);
  return found;
}

function readSnapshot(dir) {
  const incidents = [];
  for (const name of readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort())
    incidents.push(...JSON.parse(readFileSync(join(dir, name), 'utf8')).incidents);
  return incidents;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const sourcesFile = options.sources ?? SOURCES_FILE;
  const sources = JSON.parse(readFileSync(sourcesFile, 'utf8'));
  const catalog = loadCatalog(process.env.DOWNSTACK_PROVIDERS_DIR ? [process.env.DOWNSTACK_PROVIDERS_DIR] : undefined);
  const snapshot = readSnapshot(process.env.DOWNSTACK_SNAPSHOT_DIR ?? SNAPSHOT_DIR);
  const byProvider = new Map();
  const report = [];
  for (const source of sources) {
    const gitDir = gitDirOf(options.mirrors, source.repo);
    const pinned = options.update ? resolveCommit(gitDir, source.ref) : resolveCommit(gitDir, source.commit);
    if (!pinned)
      throw new Error(
        `${source.repo}: the mirror lacks ${options.update ? `ref ${source.ref}` : `the pinned commit ${source.commit}`} (fetch it again, or --update to re-pin)`,
      );
    source.commit = pinned;
    const stats = { read: 0, missing: 0, unreadable: 0, problems: [], leftOut: [] };
    const found = await READ[source.id](source, gitDir, catalog, stats);
    const list = byProvider.get(source.provider) ?? [];
    const seen = new Set(list.map((entry) => entry.incident.id));
    // Sources are listed most trusted first: a later source only adds incidents the earlier ones lack.
    let added = 0;
    for (const entry of found)
      if (!seen.has(entry.incident.id)) {
        list.push(entry);
        seen.add(entry.incident.id);
        added++;
      }
    byProvider.set(source.provider, list);
    report.push({ source, stats, found: found.length, added });
  }

  mkdirSync(options.out, { recursive: true });
  // What an earlier build wrote: the JSON files (the old one-file layout too) and each provider's folder of years.
  for (const entry of readdirSync(options.out, { withFileTypes: true }))
    if (entry.isDirectory() ? catalog.providers.has(entry.name) : entry.name.endsWith('.json'))
      rmSync(join(options.out, entry.name), { recursive: true });
  const samples = new Map();
  const manifest = { schemaVersion: HISTORY_SCHEMA_VERSION, sources: [], providers: {} };
  for (const [providerId, entries] of [...byProvider].sort(([a], [b]) => a.localeCompare(b))) {
    const provider = catalog.providers.get(providerId);
    const platform = provider.status.platform;
    const records = [];
    const told = [];
    for (const entry of entries) {
      const { incident } = entry;
      if (incident.kind === 'maintenance' || incident.resolvedAt === null) continue;
      const snapshotIncident = toldBySnapshot(incident, snapshot);
      if (snapshotIncident) {
        told.push(`${incident.id} → ${snapshotIncident.id}`);
        continue;
      }
      const precision = entry.precision ?? precisionOf(incident, entry.statesStart);
      // A start the platform publishes as data (Google Cloud's `begin`) is measured against its first post; elsewhere
      // the impact start the text states.
      const stated = entry.statesStart
        ? incident.startedAt
        : (incident.impactWindow?.from ?? (precision === 'exact' ? incident.startedAt : undefined));
      const minutes = leadSample(stated, firstPost(incident));
      if (minutes !== undefined && precision !== 'upper-bound' && entry.precision === undefined)
        samples.set(platform, [...(samples.get(platform) ?? []), minutes]);
      records.push(toHistoryRecord(incident, precision, entry.statedBy));
    }
    records.sort((a, b) => b.startedAt.localeCompare(a.startedAt) || a.id.localeCompare(b.id));
    mkdirSync(join(options.out, providerId));
    for (const file of historyFiles(providerId, records))
      writeFileSync(join(options.out, providerId, `${file.year}.json`), `${JSON.stringify(file)}\n`);
    const byYear = {};
    const precision = {};
    for (const record of records) {
      const year = record.startedAt.slice(0, 4);
      byYear[year] = (byYear[year] ?? 0) + 1;
      precision[record.timePrecision] = (precision[record.timePrecision] ?? 0) + 1;
    }
    manifest.providers[providerId] = { incidents: records.length, byYear, precision, toldBySnapshot: told };
  }
  const platforms = {};
  for (const [platform, values] of [...samples].sort(([a], [b]) => a.localeCompare(b))) {
    const figure = measureLead(values, MEASURED_ON[platform] ?? platform);
    if (figure) platforms[platform] = figure;
  }
  const leads = { schemaVersion: 1, platforms, fallback: 'statuspage' };
  writeFileSync(join(options.out, 'leads.json'), `${JSON.stringify(leads, null, 2)}\n`);
  manifest.sources = report.map(({ source, stats, found, added }) => ({
    repo: source.repo,
    commit: source.commit,
    license: source.license,
    provider: source.provider,
    reads: source.reads,
    versionsRead: stats.read,
    versionsMissing: stats.missing,
    incidents: found,
    added,
    leftOut: stats.leftOut.length,
  }));
  writeFileSync(join(options.out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  if (options.update) writeFileSync(sourcesFile, `${JSON.stringify(sources, null, 2)}\n`);

  for (const { source, stats, found, added } of report) {
    process.stderr.write(
      `${source.id}: ${found} incidents (${added} new) from ${stats.read} files or versions${stats.missing ? `, ${stats.missing} absent from the mirror` : ''}${stats.problems.length ? `, ${stats.problems.length} entries not readable` : ''}${stats.leftOut.length ? `, ${stats.leftOut.length} left out` : ''}\n`,
    );
  }
  for (const [id, entry] of Object.entries(manifest.providers))
    process.stderr.write(
      `${id}: ${entry.incidents} incidents ${JSON.stringify(entry.byYear)} ${JSON.stringify(entry.precision)}; ${entry.toldBySnapshot.length} told by the snapshot\n`,
    );
  for (const [platform, figure] of Object.entries(platforms))
    process.stderr.write(
      `lead ${platform}: median ${figure.minutes} min (p25 ${figure.p25}, p75 ${figure.p75}) over ${figure.sample} incidents\n`,
    );
}

main().catch((error) => {
  process.stderr.write(`build-history: ${error.message}\n`);
  process.exitCode = 1;
});
