// Statuspage history feeds (<page>/history.atom, /history.rss; https://support.atlassian.com/statuspage/docs/view-incident-history/)
// and incident.io feeds (/feed.atom, /history.atom): each entry is one incident. Statuspage writes every update as
// `<p><small>Mon D, HH:MM TZ</small><br><strong>Status</strong> - text</p>`, newest first and without a year;
// incident.io writes only the latest.
import { type DraftIncident, platformDraft, sortOut } from '../draft.js';
import { isClosedStatus, normalizeStatus, statusFromLabel } from '../status.js';
import { decodeEntities, fragmentText } from '../text/html.js';
import { extractTimes } from '../time/extract.js';
import type { EntryProblem, ReaderContext, ReaderResult } from '../types.js';
import { type FeedItem, parseFeed } from './feed.js';

const MAINTENANCE_WORDS = new Set(['scheduled', 'in progress', 'verifying', 'completed']);

export function parseStatuspageFeed(body: string, context: ReaderContext): ReaderResult {
  const feed = parseFeed(body, context.source);
  const problems: EntryProblem[] = [];
  const drafts = sortOut(
    feed.items.map((item) => toDraft(item, feed.title, context)),
    problems,
  );
  return { drafts, problems };
}

/** The API id from `/incidents/<id>` in the link (the feed's own `<id>` is a different, internal number). */
function incidentId(item: FeedItem): string | undefined {
  for (const candidate of [item.link, item.id]) {
    const match = candidate ? /\/incidents\/([A-Za-z0-9_-]+)\/?(?:[?#].*)?$/.exec(candidate) : null;
    if (match) return match[1];
  }
  return item.id;
}

interface FeedUpdate {
  at: string | undefined;
  status: string;
  body: string;
}

function toDraft(item: FeedItem, owner: string, context: ReaderContext): DraftIncident | EntryProblem {
  // Update lines have no year; the entry's latest timestamp bounds them (an incident can outlast `published`).
  const reference = [item.published, item.updated]
    .filter((time): time is string => time !== undefined)
    .sort()
    .at(-1);
  if (!reference)
    return {
      line: item.line,
      entry: item.title,
      message: `published/updated ${item.written ? `"${item.written}" is not a timestamp with a time zone` : 'is missing'}, so its update dates have no year`,
    };
  const all = /<b>\s*Status:/i.test(item.html)
    ? incidentIoUpdates(item, reference)
    : statuspageUpdates(item.html, reference);
  const updates = all.filter((update) => update.at !== undefined);
  const unstamped = all.filter((update) => update.at === undefined);
  const newest = updates.reduce<FeedUpdate | undefined>(
    (best, update) => (update.at && (!best?.at || update.at > best.at) ? update : best),
    undefined,
  );
  // A note posted in the same minute as the resolution (an RCA labelled "Investigating") does not reopen it.
  const closing = updates.find(
    (update) => isClosedStatus(update.status) && update.at?.slice(0, 16) === newest?.at?.slice(0, 16),
  );
  const word = (closing ?? newest)?.status.toLowerCase() ?? '';
  const closed = isClosedStatus(word);
  const maintenance =
    updates.some((update) => MAINTENANCE_WORDS.has(update.status.toLowerCase())) || /\bmaintenance\b/i.test(item.title);
  const draft = platformDraft(
    {
      format: 'feed',
      id: incidentId(item),
      title: item.title,
      url: item.link?.replace(/([^:/])\/\/+/g, '$1/'),
      status: normalizeStatus(word, closed),
      impact: maintenance ? 'maintenance' : 'unknown',
      kind: maintenance ? 'maintenance' : 'incident',
      components: affectedComponents(item.summaryHtml ?? item.html),
      startedAt: updates.map((update) => update.at as string).sort()[0],
      resolvedAt: closed ? (newest?.at ?? null) : null,
      updates: updates.map((update) => ({
        ...update,
        status: statusFromLabel(update.status) ?? update.status.toLowerCase(),
      })),
      owner,
      line: item.line,
    },
    context,
  );
  if (!('format' in draft)) {
    // No stamped update: the entry's date is all there is; its publish time is when the feed wrote it, not the outage.
    const dated = platformDraft(
      {
        format: 'feed',
        id: incidentId(item),
        title: item.title,
        url: item.link,
        status: normalizeStatus(word, closed),
        impact: 'unknown',
        startedAt: reference,
        resolvedAt: null,
        owner,
        line: item.line,
      },
      context,
    );
    if (!('format' in dated)) return dated;
    dated.startedAt = undefined;
    dated.resolvedAt = undefined;
    dated.status = unstamped.some((update) => isClosedStatus(update.status)) ? 'resolved' : undefined;
    dated.dateOnly = reference.slice(0, 10);
    dated.notes.push(
      `${unstamped.length} update(s) in the feed entry carry no time (${unstamped.map((update) => update.status.toLowerCase()).join(', ')}) and were left out`,
    );
    return dated;
  }
  if (unstamped.length > 0)
    draft.notes.push(
      `${unstamped.length} update(s) in the feed entry carry no time (${unstamped.map((update) => update.status.toLowerCase()).join(', ')}) and were left out`,
    );
  return draft;
}

function statuspageUpdates(html: string, reference: string): FeedUpdate[] {
  // An update starts at a paragraph that opens with its stamp; paragraphs inside an update's text (a postmortem
  // written as several <p>) stay with it. Entries whose stamps were lost are split at every paragraph.
  const stamped = /<small\b/i.test(html);
  return html
    .split(stamped ? /<p\b[^>]{0,200}>(?=\s*<small\b)/i : /<p\b[^>]{0,200}>/i)
    .filter((part) => fragmentText(part) !== '')
    .map((part) => {
      const small = element(part, 'small');
      const strong = element(part, 'strong');
      const rest = strong ? part.slice(strong.end).replace(/^\s*-\s*/, '') : part;
      return {
        at: small ? updateTime(fragmentText(small.inner), reference) : undefined,
        status: strong ? fragmentText(strong.inner) : 'update',
        body: fragmentText(rest),
      };
    });
}

/** The first `<tag>…</tag>` in `html`, found with two index searches so hostile input stays linear. */
function element(html: string, tag: string): { inner: string; end: number } | undefined {
  const lower = html.toLowerCase();
  const open = lower.indexOf(`<${tag}>`);
  if (open < 0) return undefined;
  const close = lower.indexOf(`</${tag}>`, open);
  if (close < 0) return undefined;
  return { inner: html.slice(open + tag.length + 2, close), end: close + tag.length + 3 };
}

/** `Mar  9, 17:45 UTC` (no year): the year that puts it nearest the entry's own date, never far after it. */
export function updateTime(stamp: string, reference: string): string | undefined {
  const mention = extractTimes(stamp, { referenceMs: Date.parse(reference) }).mentions[0];
  // A day of slack: the feed's own timestamps are rounded differently from the update lines.
  if (mention?.dateFrom !== 'written' || Date.parse(mention.at) > Date.parse(reference) + 86_400_000) return undefined;
  return mention.at;
}

function incidentIoUpdates(item: FeedItem, reference: string): FeedUpdate[] {
  const status = /<b>\s*Status:\s*([^<]{0,100})<\/b>/i.exec(item.html);
  const body = item.html
    .replace(/<b>\s*Status:[^<]{0,100}<\/b>/i, '')
    .replace(/<b>\s*Affected components\s*<\/b>[\s\S]*$/i, '');
  return [
    {
      at: item.updated ?? reference,
      status: status ? decodeEntities(status[1] ?? '').trim() : 'update',
      body: fragmentText(body),
    },
  ];
}

/** incident.io lists `<b>Affected components</b><ul><li>Search (Degraded performance)</li></ul>`. */
function affectedComponents(html: string): string[] {
  const section = /<b>\s*Affected components\s*<\/b>([\s\S]*)$/i.exec(html);
  if (!section) return [];
  return [...(section[1] ?? '').matchAll(/<li>([\s\S]{0,500}?)<\/li>/gi)]
    .map((match) => fragmentText(match[1] ?? '').replace(/\s*\([^)]*\)\s*$/, ''))
    .filter(Boolean);
}
