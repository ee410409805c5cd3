// AWS Health Dashboard: the public JSON at health.aws.amazon.com/public/currentevents (served as UTF-16 with a
// BOM; the sync core decodes it) lists the events open now, and the legacy RSS feeds at
// status.aws.amazon.com/rss/<service>-<region>.rss carry one item per update (https://health.aws.amazon.com/health/status).
import { parseJsonText } from '../../json-text.js';
import type { IncidentImpact } from '../../model.js';
import { parseFeed, type FeedItem } from './feed.js';
import { ReaderError, type EntryProblem, type ReaderContext, type ReaderResult } from '../types.js';
import { arr, onPage, componentName, rec, str } from '../platform.js';
import { epochTime } from '../time/machine.js';
import { fragmentText } from '../text/html.js';
import { type DraftIncident, platformDraft, sortOut } from '../draft.js';
import { byText } from '../../text-order.js';

// 0 resolved, 1 informational, 2 degraded, 3 disruption (observed values; AWS does not document them).
const IMPACT: IncidentImpact[] = ['none', 'minor', 'minor', 'major'];
const UPDATE_STATUS = ['resolved', 'informational', 'degraded', 'disruption'];
const REGION = /-([a-z]{2}(?:-gov|-iso[a-z]?)?-[a-z]+-\d)$/;

/** `s3-me-south-1` → {service: 's3', region: 'me-south-1'}; global services have no region. */
export function splitServiceKey(key: string): { service: string; region?: string } {
  const match = REGION.exec(key);
  if (!match?.[1]) return { service: key };
  return { service: key.slice(0, match.index), region: match[1] };
}

export function parseAwsCurrentEvents(text: string, given: ReaderContext): ReaderResult {
  const context = onPage(given, 'https://health.aws.amazon.com/health/status');
  const data = context.json ?? parseJsonText(text, context.source);
  if (!Array.isArray(data))
    throw new ReaderError(
      context.source,
      `expected the currentevents array, found ${data === null ? 'null' : typeof data}`,
    );
  const problems: EntryProblem[] = [];
  const drafts = sortOut(
    data.map((raw) => {
      const event = rec(raw);
      const arn = str(event.arn);
      const arnRegion = arn?.split(':')[3] || undefined;
      const services = [
        ...Object.entries(rec(event.impacted_services)).map(([key, value]) => ({
          key,
          name: str(rec(value).service_name),
        })),
        ...arr(event.impacted_service_status_changes).map((change) => ({
          key: str(rec(change).service) ?? '',
          name: str(rec(change).service_name),
        })),
      ];
      const regions = new Set<string>(arnRegion ? [arnRegion] : []);
      for (const { key } of [...services, { key: str(event.service) ?? '' }]) {
        const region = splitServiceKey(key).region;
        if (region) regions.add(region);
      }
      const log = arr(event.event_log).map(rec);
      const updates = log.map((entry) => ({
        at: epochTime(entry.timestamp, 's'),
        status: UPDATE_STATUS[Number(entry.status)] ?? '',
        body: str(entry.message) ?? '',
      }));
      const status = Number(str(event.status) ?? NaN);
      const lastAt = updates
        .map((update) => update.at)
        .filter((at): at is string => at !== undefined)
        .sort()
        .at(-1);
      return platformDraft(
        {
          format: 'aws',
          id: arn ?? (str(event.service) && str(event.date) ? `${str(event.service)}_${str(event.date)}` : undefined),
          title: str(event.summary),
          status: status === 0 ? 'resolved' : 'investigating',
          impact: IMPACT[status] ?? 'unknown',
          components: services
            .map(({ key, name }) => componentName(splitServiceKey(key).service, name, context))
            .filter((name): name is string => name !== undefined),
          regions: [...regions],
          // `date` is epoch seconds as a string; status changes elsewhere in the event are milliseconds.
          startedAt: epochTime(event.date, 's'),
          resolvedAt: status === 0 ? (lastAt ?? null) : null,
          updates,
        },
        context,
      );
    }),
    problems,
  );
  return { drafts, listsAllOpen: true, problems };
}

const RESOLVED_TITLE = /^(service is operating normally|resolved)\b|\[RESOLVED\]/i;
const GAP_MS = 24 * 3_600_000;

/** One item per update: items of the same `#<service>-<region>` guid key are chained into incidents. */
export function parseAwsRss(text: string, given: ReaderContext): ReaderResult {
  const context = onPage(given, 'https://health.aws.amazon.com/health/status');
  const feed = parseFeed(text, context.source);
  const channelService = /^(.*?)(?:\s*\([^)]*\))?\s*Service Status$/i.exec(feed.title.trim())?.[1]?.trim();
  const perService = channelService && !/^Amazon Web Services$/i.test(channelService) ? channelService : undefined;
  const groups = new Map<string, Array<FeedItem & { epoch: string }>>();
  const problems: EntryProblem[] = [];
  for (const item of feed.items) {
    const match = /#([^#_]+)_(\d+)$/.exec(item.id ?? '');
    if (!match?.[1] || !match[2] || !item.published) {
      problems.push({
        line: item.line,
        entry: item.title.slice(0, 80),
        message: 'has no #<service>_<epoch> guid or date; skipped',
      });
      continue;
    }
    const list = groups.get(match[1]) ?? [];
    list.push({ ...item, epoch: match[2] });
    groups.set(match[1], list);
  }
  const results: Array<DraftIncident | EntryProblem> = [];
  for (const [key, items] of groups) {
    items.sort((a, b) => byText(a.published ?? '', b.published ?? ''));
    let chain: typeof items = [];
    const flush = () => {
      if (chain.length > 0) results.push(rssIncident(key, chain, perService, context));
      chain = [];
    };
    for (const item of items) {
      const previous = chain.at(-1);
      if (
        previous &&
        (RESOLVED_TITLE.test(previous.title) ||
          Date.parse(item.published ?? '') - Date.parse(previous.published ?? '') > GAP_MS)
      )
        flush();
      chain.push(item);
    }
    flush();
  }
  return { drafts: sortOut(results, problems), problems };
}

function rssIncident(
  key: string,
  chain: Array<FeedItem & { epoch: string }>,
  serviceName: string | undefined,
  context: ReaderContext,
) {
  const { service, region } = splitServiceKey(key);
  const last = chain.at(-1);
  const resolved = last ? RESOLVED_TITLE.test(last.title) : false;
  const stripped = (title: string) =>
    title
      .replace(/^[^:[]*:\s*/, '')
      .replace(/^\[RESOLVED\]\s*/i, '')
      .trim();
  return platformDraft(
    {
      format: 'aws',
      id: `${key}_${chain[0]?.epoch}`,
      title: stripped(last?.title ?? ''),
      status: resolved ? 'resolved' : 'investigating',
      impact: /disruption/i.test(chain.map((item) => item.title).join(' '))
        ? 'major'
        : /performance|impact/i.test(chain.map((item) => item.title).join(' '))
          ? 'minor'
          : 'unknown',
      components: [componentName(service, serviceName ?? service, context) ?? service],
      regions: region ? [region] : [],
      startedAt: chain[0]?.published,
      resolvedAt: resolved ? (last?.published ?? null) : null,
      updates: chain.map((item) => ({
        at: item.published,
        status: /^([^:]*):/.exec(item.title)?.[1]?.toLowerCase() ?? '',
        body: fragmentText(item.html),
      })),
    },
    context,
  );
}
