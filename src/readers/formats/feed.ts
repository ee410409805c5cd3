// Generic RSS 2.0 (https://www.rssboard.org/rss-specification) and Atom (RFC 4287) reading: one flat item shape
// for every feed, so the platform feed adapters only deal with what their content means.
import { XMLParser } from 'fast-xml-parser';
import { lineAt } from '../../errors.js';
import { lineLocator } from '../../line-locator.js';
import { ReaderError, type EntryProblem, type ReaderContext, type ReaderResult } from '../types.js';
import { arr, rec, safeUrl, str } from '../platform.js';
import { machineTime } from '../time/machine.js';
import { fragmentText } from '../text/html.js';
import { platformDraft, sortOut } from '../draft.js';

export interface FeedItem {
  id?: string;
  title: string;
  link?: string;
  /** Published (or pubDate) as UTC ISO. */
  published?: string;
  updated?: string;
  /** Raw HTML or text of the content (Atom content, else summary; RSS description). */
  html: string;
  /** Atom summary when it differs from the content (incident.io puts affected components there). */
  summaryHtml?: string;
  categories: string[];
  /** Line of the item in the feed's text, for problems. */
  line: number;
  /** The date as the feed wrote it, for a problem that quotes it. */
  written?: string;
}

export interface Feed {
  title: string;
  kind: 'rss' | 'atom';
  generator?: string;
  items: FeedItem[];
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  htmlEntities: false,
  isArray: (name) => ['item', 'entry', 'category', 'link'].includes(name),
});

/** Text of a node that may be a string, a CDATA/attribute object (`#text`) or missing. */
function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  const node = rec(value);
  return typeof node['#text'] === 'string' ? node['#text'] : '';
}

/** An Atom or RSS document, judged from its start (an XML declaration, a DOCTYPE and comments may come first). */
export function looksLikeFeed(text: string): boolean {
  return /^\s*(?:<\?xml[^>]{0,200}>\s*)?(?:<!--[\s\S]{0,2000}?-->\s*|<!DOCTYPE[^>[]{0,500}(?:\[[\s\S]{0,5000}?\])?\s*>\s*)*<(?:feed|rss|rdf:RDF)\b/i.test(
    text.slice(0, 10_000),
  );
}

export function parseFeed(body: string, source: string): Feed {
  // A DTD can define entities that expand without bound; status feeds never need one.
  const entity = /<!ENTITY/i.exec(body.slice(0, 100_000));
  if (entity)
    throw new ReaderError(source, 'the feed declares XML entities (<!ENTITY); refused', lineAt(body, entity.index));
  let doc: Record<string, unknown>;
  try {
    doc = rec(parser.parse(body, true));
  } catch (error) {
    const message = (error as Error).message ?? String(error);
    const line = /line[: ]+(\d+)/i.exec(message)?.[1] ?? /:(\d+):/.exec(message)?.[1];
    throw new ReaderError(
      source,
      `not well-formed XML (${message.split('\n')[0]?.slice(0, 200)})`,
      line ? Number(line) : undefined,
    );
  }
  const lineOf = itemLines(body);
  if (doc.rss !== undefined || doc['rdf:RDF'] !== undefined) {
    const channel = rec(rec(doc.rss ?? doc['rdf:RDF']).channel);
    return {
      title: text(channel.title),
      kind: 'rss',
      generator: text(channel.generator) || undefined,
      items: arr(channel.item ?? rec(doc['rdf:RDF']).item).map((raw) => {
        const item = rec(raw);
        const written = text(item.pubDate) || text(item['dc:date']);
        return {
          line: lineOf('item'),
          ...(written ? { written } : {}),
          id: text(item.guid) || undefined,
          title: text(item.title),
          link: text(arr(item.link)[0]) || undefined,
          published: machineTime(text(item.pubDate) || text(item['dc:date'])),
          html: text(item['content:encoded']) || text(item.description),
          categories: arr(item.category).map(text).filter(Boolean),
        };
      }),
    };
  }
  if (doc.feed !== undefined) {
    const feed = rec(doc.feed);
    return {
      title: text(feed.title),
      kind: 'atom',
      generator: text(feed.generator) || undefined,
      items: arr(feed.entry).map((raw) => {
        const entry = rec(raw);
        const written = text(entry.published) || text(entry.updated);
        const links = arr(entry.link).map(rec);
        const alternate = links.find((link) => (str(link['@_rel']) ?? 'alternate') === 'alternate') ?? links[0];
        const content = text(entry.content);
        const summary = text(entry.summary);
        return {
          line: lineOf('entry'),
          ...(written ? { written } : {}),
          id: text(entry.id) || undefined,
          title: text(entry.title),
          link: str(alternate?.['@_href']),
          published: machineTime(text(entry.published)),
          updated: machineTime(text(entry.updated)),
          html: content || summary,
          ...(summary && summary !== content ? { summaryHtml: summary } : {}),
          categories: arr(entry.category)
            .map((category) => str(rec(category)['@_term']) ?? text(category))
            .filter(Boolean),
        };
      }),
    };
  }
  const root = Object.keys(doc).find((key) => !key.startsWith('?')) ?? 'nothing';
  throw new ReaderError(source, `expected an RSS or Atom feed, found <${root}>`, 1);
}

/** Lines of the `<item>` / `<entry>` elements in order: the n-th call for a tag answers the n-th one's line. */
function itemLines(body: string): (tag: 'item' | 'entry') => number {
  const positions = new Map<string, number[]>();
  const seen = new Map<string, number>();
  const locate = lineLocator(body);
  return (tag) => {
    let found = positions.get(tag);
    if (!found) {
      found = [...body.matchAll(new RegExp(`<${tag}[\\s>]`, 'g'))].map((match) => locate(match.index ?? 0));
      positions.set(tag, found);
    }
    const n = seen.get(tag) ?? 0;
    seen.set(tag, n + 1);
    return found[n] ?? 1;
  };
}

/** Any feed, read at face value: one item is one incident, resolved when its words say so. */
export function parseGenericFeed(body: string, context: ReaderContext): ReaderResult {
  const feed = parseFeed(body, context.source);
  const problems: EntryProblem[] = [];
  const drafts = sortOut(
    feed.items.map((item) => {
      const textBody = fragmentText(item.html);
      const when = item.published ?? item.updated;
      const resolved = /\b(resolved|completed|operating normally)\b/i.test(`${item.title} ${textBody.slice(0, 300)}`);
      return platformDraft(
        {
          format: 'feed',
          id: item.id ?? safeUrl(item.link) ?? (when ? `${when}:${item.title}` : undefined),
          title: item.title,
          url: item.link,
          status: resolved ? 'resolved' : 'investigating',
          impact: 'unknown',
          kind: /\bmaintenance\b/i.test(item.title) ? 'maintenance' : 'incident',
          components: item.categories,
          startedAt: when,
          resolvedAt: resolved ? when : null,
          updates: [{ at: when, status: resolved ? 'resolved' : 'update', body: textBody }],
          owner: feed.title,
          line: item.line,
        },
        context,
      );
    }),
    problems,
  );
  return { drafts, problems };
}
