// One function per archive: read it at its pinned commit through downstack's own reader layer (dist/readers), the
// same readers sync and import use, and hand back incidents with what is known about their times. Nothing here keeps
// the archives' text: the build turns each incident into facts (src/incidents/history-facts.ts).
import { execFileSync } from 'node:child_process';
import { findComponent } from '../../dist/catalog/loader.js';
import { platformDraft } from '../../dist/readers/draft.js';
import { azureRegionId } from '../../dist/readers/formats/azure.js';
import { finishDraft } from '../../dist/readers/finish.js';
import { READERS } from '../../dist/readers/registry.js';
import { describeProblem } from '../../dist/readers/types.js';
import { fileVersions, listFiles, readObjects } from './git.js';

const BATCH = 50;
const NOT_A_NAME = /\b(impact\w*|issues?|failures?|events?|after|resolution|outage|cut|regions?|dependent)\b/i;

/**
 * What each source yields: `{incident, statesStart, statedBy, precision?}` — whether the platform states the impact
 * start as data (Google Cloud's `begin`), in our words who states a window read from text, and a precision the source
 * fixes outright (a post-incident review's times are all from its text).
 */
function finish(drafts, provider, source, problems) {
  const incidents = [];
  for (const draft of drafts) {
    const done = finishDraft(draft, { provider: provider.id, entry: provider, source, pageUrl: provider.status.url });
    if ('provider' in done) incidents.push(done);
    else problems.push(describeProblem(source, done));
  }
  return incidents;
}

function context(provider, source) {
  const componentNames = new Map(provider.components.filter((c) => c.id).map((c) => [c.id, c.name]));
  return {
    source,
    pageUrl: provider.status.url.replace(/\/+$/, ''),
    componentNames,
    ...(provider.regions ? { regions: new Set(provider.regions) } : {}),
  };
}

async function* batches(gitDir, objects) {
  for (let i = 0; i < objects.length; i += BATCH) {
    const texts = await readObjects(gitDir, objects.slice(i, i + BATCH));
    for (let j = 0; j < texts.length; j++) yield [objects[i + j], texts[j]];
  }
}

/** GitHub-Incident-History: one `/api/v2/incidents/{code}.json` answer per file, GitHub's whole history to 2023. */
export async function githubRecords(source, gitDir, catalog, stats) {
  const github = catalog.providers.get('github');
  const files = listFiles(gitDir, source.commit, 'incidents').filter((path) => path.endsWith('.json'));
  const out = [];
  for await (const [object, text] of batches(
    gitDir,
    files.map((path) => `${source.commit}:${path}`),
  )) {
    if (text === undefined) {
      stats.missing++;
      continue;
    }
    const code = object
      .split('/')
      .at(-1)
      .replace(/\.json$/, '');
    const url = `${github.status.url.replace(/\/+$/, '')}/api/v2/incidents/${code}.json`;
    const read = READERS.statuspage(text, context(github, url));
    for (const problem of read.problems) stats.problems.push(describeProblem(url, problem));
    for (const incident of finish(read.drafts, github, url, stats.problems))
      out.push({ incident, statesStart: false, statedBy: "stated in GitHub's status updates" });
  }
  stats.read += files.length;
  return out;
}

/**
 * mrshu/github-statuses: every version of GitHub's history.atom since 2022 (25 entries each). Each entry is kept as
 * its newest version had it; the entries are read together as one feed, then impact and components are taken from
 * the project's cache of the incident pages, which the feed does not carry.
 */
export async function githubFeed(source, gitDir, catalog, stats) {
  const github = catalog.providers.get('github');
  const versions = fileVersions(gitDir, source.commit, 'github-status-history.atom');
  const entries = new Map();
  let header;
  for await (const [, text] of batches(
    gitDir,
    versions.map((version) => version.blob),
  )) {
    if (text === undefined) {
      stats.missing++;
      continue;
    }
    stats.read++;
    header ??= text.slice(0, text.search(/<entry>/));
    for (const match of text.matchAll(/<entry>[\s\S]*?<\/entry>/g)) {
      const id = /<id>([^<]*)<\/id>/.exec(match[0])?.[1];
      if (id && !entries.has(id)) entries.set(id, match[0]);
    }
  }
  if (!header) return [];
  const feed = `${header}${[...entries.values()].join('\n')}\n</feed>\n`;
  const url = `${github.status.url.replace(/\/+$/, '')}/history.atom`;
  const read = READERS['statuspage-feed'](feed, context(github, url));
  for (const problem of read.problems) stats.problems.push(describeProblem(url, problem));
  const cache = JSON.parse((await readObjects(gitDir, [`${source.commit}:.cache/impact.json`]))[0] ?? '{"items":{}}');
  const out = [];
  for (const incident of finish(read.drafts, github, url, stats.problems)) {
    const page = cache.items?.[incident.url];
    if (page?.impact === 'maintenance' || incident.kind === 'maintenance') continue;
    if (page?.impact) incident.impact = page.impact;
    if (Array.isArray(page?.components) && page.components.length > 0) incident.components = page.components;
    out.push({ incident, statesStart: false, statedBy: "stated in GitHub's status updates" });
  }
  return out;
}

/**
 * outages/gcp-outages: Google Cloud's incidents.json polled since 2020. The file is a rolling year, so one version a
 * week holds every incident, each as it stood at least a week after it ended; versions of 4 MiB and more are not in
 * the mirror, and a week without any present version is skipped and counted.
 */
export async function gcpIncidents(source, gitDir, catalog, stats) {
  const gcp = catalog.providers.get('google-cloud');
  const weekly = weeklyVersions(gitDir, fileVersions(gitDir, source.commit, 'gcp_outages.json'), stats);
  const items = new Map();
  const idOfNumber = new Map();
  for await (const [, text] of batches(gitDir, weekly)) {
    if (text === undefined) continue;
    stats.read++;
    for (const item of parseArray(text)) {
      if (item.id && item.number) idOfNumber.set(String(item.number), item.id);
      const key = item.id ?? idOfNumber.get(String(item.number)) ?? `number-${item.number}`;
      if (!items.has(key)) items.set(key, item);
    }
  }
  // An item first seen in the older shape (no id) is the same incident as the newer one with its number.
  const merged = new Map();
  for (const [key, item] of items) {
    const id = key.startsWith('number-') ? (idOfNumber.get(key.slice(7)) ?? key) : key;
    if (!merged.has(id)) merged.set(id, item.id ? item : { ...item, id: id.startsWith('number-') ? undefined : id });
  }
  const url = `${gcp.status.url.replace(/\/+$/, '')}/incidents.json`;
  const text = JSON.stringify([...merged.values()]);
  const read = READERS.gcp(text, context(gcp, url));
  for (const problem of read.problems) stats.problems.push(describeProblem(url, problem));
  return finish(read.drafts, gcp, url, stats.problems).map((incident) => ({
    incident,
    statesStart: true,
    statedBy: 'stated by Google Cloud',
  }));
}

/** outages/aws-outages: the AWS dashboard's data.json (a year of events each) polled 2020-2023; events back to 2018. */
export async function awsDashboard(source, gitDir, catalog, stats) {
  const aws = catalog.providers.get('aws');
  const versions = fileVersions(gitDir, source.commit, 'aws_outages.json');
  const events = new Map();
  for await (const [, text] of batches(
    gitDir,
    versions.map((version) => version.blob),
  )) {
    if (text === undefined) {
      stats.missing++;
      continue;
    }
    stats.read++;
    let data;
    try {
      data = JSON.parse(text);
    } catch {
      stats.unreadable++;
      continue;
    }
    for (const event of [...(data.archive ?? []), ...(data.current ?? [])]) {
      const key = `${event.service}_${event.date}`;
      // Newest version first: an event is kept as it stood last, resolved and with its final post.
      if (!events.has(key)) events.set(key, { archived: (data.archive ?? []).includes(event), event });
    }
  }
  const body = {
    current: [...events.values()].filter((entry) => !entry.archived).map((entry) => entry.event),
    archive: [...events.values()].filter((entry) => entry.archived).map((entry) => entry.event),
  };
  const url = 'https://status.aws.amazon.com/data.json';
  const read = READERS['aws-status-data'](JSON.stringify(body), context(aws, url));
  for (const problem of read.problems) stats.problems.push(describeProblem(url, problem));
  return finish(read.drafts, aws, url, stats.problems).map((incident) => ({
    incident,
    statesStart: false,
    statedBy: "stated in AWS's posts",
  }));
}

/**
 * Ghoul-SSZ/cloud-historic-uptime: Azure post-incident reviews (2021-) and AWS Health events (2025-), as that
 * project recorded them. Each record's times and its own updates go through the reader layer's platform draft, so a
 * window the review states ("between 11:30 UTC on 24 April and 00:15 UTC on 25 April") is read the same way as
 * anywhere else; a review with neither an end nor a stated window has no times to replay and is left out.
 */
export async function cloudHistoric(source, gitDir, catalog, stats, providerId) {
  const provider = catalog.providers.get(providerId);
  const path = `data/incidents/${providerId}.json`;
  const [text] = await readObjects(gitDir, [`${source.commit}:${path}`]);
  if (text === undefined) {
    stats.missing++;
    return [];
  }
  stats.read++;
  const url =
    providerId === 'azure'
      ? 'https://azure.status.microsoft/en-us/status/history/'
      : 'https://health.aws.amazon.com/health/status';
  const out = [];
  for (const record of JSON.parse(text)) {
    const trackingId = String(record.id ?? '').replace(/^(azure|aws)-/, '');
    const services = record.affectedServices ?? [];
    // The reviews write "Azure Virtual Machines (VMs)" and "East US"; the catalog knows "Virtual Machines" and eastus.
    const component = (name) =>
      findComponent(provider, name)?.name ??
      findComponent(provider, name.replace(/\s*\([^)]*\)\s*$/, ''))?.name ??
      name;
    const region = (name) => (providerId === 'azure' ? azureRegionId(name) : name);
    // A start at midnight is a date the record gives without a time: the stated window, if any, says when.
    const dateOnly = /T00:00:00(\.000)?Z$/.test(record.startedAt ?? '');
    const draft = platformDraft(
      {
        format: providerId === 'azure' ? 'azure-pir' : 'aws',
        postsAreDates: dateOnly,
        id: providerId === 'azure' ? trackingId : `aws-health:${trackingId}`,
        title: record.title,
        url: providerId === 'azure' ? `${url}?trackingId=${encodeURIComponent(trackingId)}` : url,
        status: 'resolved',
        impact: ['minor', 'major', 'critical'].includes(record.severity) ? record.severity : 'unknown',
        components: services
          .map((service) => service.serviceName)
          .filter((name) => name && !/^(multiple|other dependent) services$/i.test(name))
          .map(component)
          // Some reviews put a phrase where a service goes ("Thermal event impacting multiple services"): not a name.
          .filter((name) => findComponent(provider, name) || !NOT_A_NAME.test(name)),
        regions: [...new Set(services.flatMap((service) => service.regions ?? []).map(region))],
        startedAt: record.startedAt,
        resolvedAt: record.resolvedAt,
        updates: [
          ...(record.updates ?? []).map((update) => ({
            at: update.timestamp,
            status: String(update.status ?? 'update'),
            body: update.message ?? '',
          })),
          ...(record.description && providerId === 'azure'
            ? [{ at: record.startedAt, status: 'summary', body: record.description }]
            : []),
        ],
      },
      context(provider, url),
    );
    if (!('format' in draft)) {
      stats.problems.push(describeProblem(path, draft));
      continue;
    }
    const [incident] = finish([draft], provider, url, stats.problems);
    if (!incident) continue;
    // A review that states its window but records no end of its own ends where the window does.
    if (incident.resolvedAt === null && incident.impactWindow) incident.resolvedAt = incident.impactWindow.to;
    if (dateOnly && incident.impactWindow) incident.startedAt = incident.impactWindow.from;
    const window = incident.impactWindow ?? { from: incident.startedAt, to: incident.resolvedAt };
    if ((dateOnly && !incident.impactWindow) || !window.to || window.to <= window.from) {
      stats.leftOut.push(`${providerId} ${trackingId}: no stated start and end to replay`);
      continue;
    }
    // A review's times are the impact window it states, in its own words; AWS Health's start is its first post.
    out.push(
      providerId === 'azure'
        ? {
            incident,
            statesStart: false,
            precision: 'from-text',
            statedBy: "stated in Microsoft's post-incident review",
          }
        : { incident, statesStart: false, statedBy: "stated in AWS's posts" },
    );
  }
  return out;
}

function parseArray(text) {
  try {
    const data = JSON.parse(text);
    return Array.isArray(data) ? data : [];
  } catch {
    return [];
  }
}

/** The newest present version of each week (ISO weeks of the commit date), newest week first. */
function weeklyVersions(gitDir, versions, stats) {
  const check = readPresence(
    gitDir,
    versions.map((version) => version.blob),
  );
  const byWeek = new Map();
  versions.forEach((version, i) => {
    if (!check[i]) {
      stats.missing++;
      return;
    }
    const week = Math.floor(Date.parse(version.date) / (7 * 86_400_000));
    if (!byWeek.has(week)) byWeek.set(week, version.blob);
  });
  return [...byWeek.values()];
}

function readPresence(gitDir, blobs) {
  const out = execFileSync('git', [`--git-dir=${gitDir}`, 'cat-file', '--batch-check'], {
    input: `${blobs.join('\n')}\n`,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => !line.endsWith(' missing'));
}
