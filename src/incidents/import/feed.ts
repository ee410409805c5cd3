// Statuspage history feeds (Atom RFC 4287 / RSS 2.0, https://support.atlassian.com/statuspage/docs/view-incident-history/):
// one entry per incident, one <p> per update stamped "Dec 26, 14:45 UTC" with no year.
import { XMLParser } from 'fast-xml-parser';
import { ParseError } from '../../errors.js';
import { isRecord } from '../../json-text.js';
import type { IncidentUpdate } from '../../model.js';
import { cleanText } from '../../sanitize.js';
import { emptyDraft, statusFromLabel, type DraftIncident } from './draft.js';
import { htmlToText } from './html.js';
import { machineTimeToUtc } from './iso.js';
import { lineLocator } from '../../line-locator.js';
import { readProse } from './prose.js';
import { extractTimes } from './time-extract.js';

export function looksLikeFeed(text: string): boolean {
  return /^\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<(?:feed|rss)\b/i.test(text);
}

export function parseFeed(text: string, file: string): DraftIncident[] {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    textNodeName: '#text',
    processEntities: true,
    htmlEntities: true,
    parseTagValue: false,
    trimValues: true,
  });
  let doc: unknown;
  try {
    doc = parser.parse(text, true);
  } catch (error) {
    const message = (error as Error).message;
    const line = /line[: ]+(\d+)/i.exec(message)?.[1];
    throw new ParseError(file, line ? Number(line) : undefined, `not a well-formed feed: ${message.split('\n')[0]}`);
  }
  if (!isRecord(doc)) throw new ParseError(file, 1, 'not a feed');
  const lineAt = lineLocator(text);
  if (isRecord(doc.feed)) {
    const feed = doc.feed;
    const owner = textOf(feed.title);
    const feedLink = links(feed.link)[0] ?? '';
    return list(feed.entry).map((entry) =>
      draftFromEntry(
        {
          title: textOf(entry.title),
          link: links(entry.link)[0] ?? '',
          guid: textOf(entry.id),
          published: textOf(entry.published) || textOf(entry.updated),
          html: textOf(entry.content) || textOf(entry.summary),
        },
        { owner, feedLink, text, file, format: 'atom', lineAt },
      ),
    );
  }
  if (isRecord(doc.rss) && isRecord(doc.rss.channel)) {
    const channel = doc.rss.channel;
    const owner = textOf(channel.title);
    const feedLink = textOf(channel.link);
    return list(channel.item).map((item) =>
      draftFromEntry(
        {
          title: textOf(item.title),
          link: textOf(item.link) || textOf(item.guid),
          guid: textOf(item.guid),
          published: textOf(item.pubDate),
          html: textOf(item.description),
        },
        { owner, feedLink, text, file, format: 'rss', lineAt },
      ),
    );
  }
  throw new ParseError(file, 1, 'XML but neither an Atom <feed> nor an RSS <rss><channel>');
}

interface Entry {
  title: string;
  link: string;
  guid: string;
  published: string;
  html: string;
}

interface FeedContext {
  owner: string;
  feedLink: string;
  text: string;
  file: string;
  format: 'atom' | 'rss';
  lineAt: (offset: number) => number;
}

function draftFromEntry(entry: Entry, context: FeedContext): DraftIncident {
  const offset = Math.max(0, context.text.indexOf(entry.link || entry.title));
  const line = context.lineAt(offset);
  const draft = emptyDraft(context.file, context.format, line);
  const published = machineTimeToUtc(entry.published);
  if (!published)
    throw new ParseError(
      context.file,
      line,
      `entry "${entry.title}": published/pubDate "${entry.published}" is not a timestamp with a time zone, so its update dates have no year`,
    );
  const code = /\/incidents\/([a-z0-9]+)/i.exec(entry.link)?.[1];
  draft.id = code ?? (entry.guid || undefined);
  draft.title = entry.title;
  draft.url = entry.link;

  const updates: IncidentUpdate[] = [];
  const unstamped: string[] = [];
  for (const paragraph of entry.html.split(/<\/p\s*>/i)) {
    const plain = htmlToText(paragraph).text;
    if (plain === '') continue;
    const [stampLine = '', ...rest] = plain.split('\n');
    const stamp = extractTimes(stampLine, { referenceMs: Date.parse(published) }).mentions[0];
    const body = stamp ? rest.join('\n') : plain;
    const labelled = /^([A-Za-z][A-Za-z ]{1,20}?)\s+[-–]\s+([\s\S]*)$/.exec(body.trim());
    const status = labelled
      ? (statusFromLabel(labelled[1] ?? '') ?? (labelled[1] ?? 'update').toLowerCase())
      : 'update';
    if (!stamp) {
      unstamped.push(status);
      continue;
    }
    updates.push({ at: stamp.at, status, body: cleanText(labelled?.[2] ?? body), components: [] });
  }
  draft.updates = updates.sort((a, b) => a.at.localeCompare(b.at));
  if (unstamped.length > 0)
    draft.notes.push(
      `${unstamped.length} update(s) in the feed entry carry no time (${unstamped.join(', ')}) and were left out`,
    );
  // No stamped update: the entry's date is all there is; its publish time is when the feed wrote it, not the outage.
  if (draft.updates.length === 0) draft.dateOnly = published.slice(0, 10);
  const last = draft.updates.filter((update) => update.status !== 'postmortem').at(-1);
  const lastStatus = last ? statusFromLabel(last.status) : undefined;
  if (lastStatus) draft.status = lastStatus;

  const prose = draft.updates.map((update) => update.body).join('\n\n');
  const reading = readProse(prose, draft.updates[0] ? { anchorMs: Date.parse(draft.updates[0].at) } : {});
  if (reading.problems[0])
    throw new ParseError(context.file, line, `entry "${entry.title}": ${reading.problems[0].message}`);
  draft.claims = reading.claims;
  draft.durations = reading.durations;
  draft.notes.push(...reading.notes);
  draft.hints = {
    owners: [context.owner],
    urls: [context.feedLink, entry.link].filter(Boolean),
    text: `${entry.title}\n${prose}`,
  };
  return draft;
}

function list(value: unknown): Array<Record<string, unknown>> {
  const items = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return items.filter(isRecord);
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (isRecord(value) && typeof value['#text'] === 'string') return value['#text'];
  return '';
}

function links(value: unknown): string[] {
  const items = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return items.map((item) => (isRecord(item) ? String(item['@_href'] ?? '') : textOf(item))).filter(Boolean);
}
