// The AWS Service Health Dashboard's data before 2023 (status.aws.amazon.com/data.json): `{current: [], archive: []}`,
// one item per event with its service key (`ec2-us-east-1`), the epoch second of its first post, and every post in one
// description — `<div><span class="yellowfg"> 8:39 AM PDT</span>&nbsp;text</div>` — stamped with a time of day and a
// zone but no date. The archive held about a year of events; copies of it kept over time go back to 2018.
import { isRecord, parseJsonText } from '../../json-text.js';
import type { IncidentImpact } from '../../model.js';
import { type DraftIncident, platformDraft, sortOut } from '../draft.js';
import { arr, componentName, onPage, rec, str } from '../platform.js';
import { fragmentText } from '../text/html.js';
import { extractTimes } from '../time/extract.js';
import { epochTime } from '../time/machine.js';
import { type EntryProblem, type ReaderContext, ReaderError, type ReaderResult } from '../types.js';
import { splitServiceKey } from './aws.js';

// 0 resolved, 1 informational, 2 degraded, 3 disruption, as the current dashboard numbers them.
const IMPACT: IncidentImpact[] = ['none', 'minor', 'minor', 'major'];
const RESOLVED = /^\s*\[RESOLVED\]/i;
const POST_START = /<div>\s*<span class="[a-z]+fg">([^<]{1,40})<\/span>/gi;
/** A post's stamp can only run forward from the one before it; more than this ahead is a misread. */
const MAX_STEP_MS = 3 * 86_400_000;
const DAY_MS = 86_400_000;

/** `{current, archive}` with items that carry a service key, a date and a description. */
export function isAwsStatusData(data: unknown): boolean {
  if (!isRecord(data) || !Array.isArray(data.archive) || !Array.isArray(data.current)) return false;
  const items = [...data.archive, ...data.current];
  return items.every((item) => isRecord(item) && 'service' in item && 'date' in item && 'description' in item);
}

export function parseAwsStatusData(text: string, given: ReaderContext): ReaderResult {
  const context = onPage(given, 'https://health.aws.amazon.com/health/status');
  const data = context.json ?? parseJsonText(text, context.source);
  if (!isAwsStatusData(data))
    throw new ReaderError(context.source, 'not the AWS dashboard data (no "current" and "archive" lists of events)', 1);
  const body = rec(data);
  const problems: EntryProblem[] = [];
  const drafts = sortOut(
    [
      ...arr(body.current).map((item) => toDraft(rec(item), false, context)),
      ...arr(body.archive).map((item) => toDraft(rec(item), true, context)),
    ],
    problems,
  );
  return { drafts, problems };
}

function toDraft(
  item: Record<string, unknown>,
  archived: boolean,
  context: ReaderContext,
): DraftIncident | EntryProblem {
  const key = str(item.service) ?? '';
  const startedAt = epochTime(item.date, 's');
  const { service, region } = splitServiceKey(key);
  const title = (str(item.summary) ?? '').replace(RESOLVED, '').trim();
  const resolved = archived || RESOLVED.test(str(item.summary) ?? '');
  const updates = startedAt ? posts(str(item.description) ?? '', startedAt) : [];
  // The event's date can come after its first post (by a day: a backup event dated 9 Oct 2019 whose posts are stamped
  // Oct 7, 7:00 PM PDT), so the earlier of the two is the start, and the text's times of day are read near it.
  const first = updates[0]?.at;
  const status = Number(str(item.status));
  const serviceName = (str(item.service_name) ?? service).replace(/\s*\([^)]*\)\s*$/, '');
  return platformDraft(
    {
      format: 'aws-status-data',
      // The id the legacy RSS feeds give the same event (`#<service>_<epoch>`), so both merge.
      id: key && str(item.date) ? `${key}_${str(item.date)}` : undefined,
      title,
      status: resolved ? 'resolved' : 'investigating',
      impact: IMPACT[status] ?? 'unknown',
      components: [componentName(service, serviceName, context) ?? serviceName],
      regions: region ? [region] : [],
      startedAt: first && startedAt && Date.parse(first) < Date.parse(startedAt) - 60_000 ? first : startedAt,
      resolvedAt: resolved ? (updates.at(-1)?.at ?? startedAt ?? null) : null,
      updates,
    },
    context,
  );
}

/**
 * The posts of one description: the first on the day that puts it nearest the event's own date, each later one dated
 * forward from the one before it. The event's date is not always its first post: the Kinesis outage's EventBridge
 * event (25 Nov 2020) is dated 7:44 AM PST and its first post is stamped 6:45 AM PST, which dated forward from the
 * event's date fell on the next day and carried every later post, and the resolution, a day late.
 */
function posts(description: string, eventAt: string): Array<{ at: string; status: string; body: string }> {
  const starts = [...description.matchAll(POST_START)];
  let previous = Date.parse(eventAt);
  return starts.map((match, i) => {
    const next = starts[i + 1]?.index ?? description.length;
    const html = description.slice((match.index ?? 0) + match[0].length, next);
    const stamp = extractTimes(match[1] ?? '', { anchorMs: previous }).mentions[0];
    let at = stamp ? Date.parse(stamp.at) : Number.NaN;
    // The first stamp is read on the day nearest the event's date, on whichever side of it.
    if (i === 0 && Number.isFinite(at)) previous = at;
    // A stamp is a time of day: placed on the day that keeps the posts in order (an event that runs past midnight).
    while (Number.isFinite(at) && at < previous - 60_000) at += DAY_MS;
    if (!Number.isFinite(at) || at - previous > MAX_STEP_MS) at = previous;
    previous = at;
    return {
      at: `${new Date(at).toISOString().slice(0, 19)}Z`,
      status: i === 0 ? 'investigating' : 'update',
      body: fragmentText(html.replace(/^&nbsp;/, '')),
    };
  });
}
