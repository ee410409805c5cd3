// Generic RSS 2.0 (https://www.rssboard.org/rss-specification) and Atom (RFC 4287) reading: one flat item shape
// for every feed, so the platform feed adapters only deal with what their content means.
import { XMLParser } from 'fast-xml-parser';
import type { Incident } from '../../model.js';
import { arr, collect, finishIncident, htmlToText, rec, safeUrl, str, toIso } from './common.js';
import { AdapterError, type AdapterContext, type AdapterResult } from './types.js';

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

export function parseFeed(body: string, source: string): Feed {
  // A DTD can define entities that expand without bound; status feeds never need one.
  if (/<!ENTITY/i.test(body.slice(0, 10_000))) throw new AdapterError(`${source}: feed declares XML entities; refused`);
  let doc: Record<string, unknown>;
  try {
    doc = rec(parser.parse(body, true));
  } catch (error) {
    throw new AdapterError(`${source}: not well-formed XML (${(error as Error).message.split('\n')[0]})`);
  }
  if (doc.rss !== undefined || doc['rdf:RDF'] !== undefined) {
    const channel = rec(rec(doc.rss ?? doc['rdf:RDF']).channel);
    return {
      title: text(channel.title),
      kind: 'rss',
      generator: text(channel.generator) || undefined,
      items: arr(channel.item ?? rec(doc['rdf:RDF']).item).map((raw) => {
        const item = rec(raw);
        return {
          id: text(item.guid) || undefined,
          title: text(item.title),
          link: text(arr(item.link)[0]) || undefined,
          published: toIso(text(item.pubDate) || text(item['dc:date'])),
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
        const links = arr(entry.link).map(rec);
        const alternate = links.find((link) => (str(link['@_rel']) ?? 'alternate') === 'alternate') ?? links[0];
        const content = text(entry.content);
        const summary = text(entry.summary);
        return {
          id: text(entry.id) || undefined,
          title: text(entry.title),
          link: str(alternate?.['@_href']),
          published: toIso(text(entry.published)),
          updated: toIso(text(entry.updated)),
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
  throw new AdapterError(`${source}: expected an RSS or Atom feed, found <${root}>`);
}

/** Any feed, read at face value: one item is one incident, resolved when its words say so. */
export function parseGenericFeed(body: string, context: AdapterContext): AdapterResult {
  const feed = parseFeed(body, context.source);
  const problems: string[] = [];
  const incidents: Incident[] = collect(
    feed.items.map((item) => {
      const textBody = htmlToText(item.html);
      const when = item.published ?? item.updated;
      const resolved = /\b(resolved|completed|operating normally)\b/i.test(`${item.title} ${textBody.slice(0, 300)}`);
      return finishIncident(
        {
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
        },
        context,
      );
    }),
    problems,
  );
  return { incidents, problems };
}
