// Statuspage history feeds (<page>/history.atom, /history.rss) and incident.io feeds (/feed.atom, /history.atom):
// each entry is one incident; Statuspage writes every update as `<p><small>Mon D, HH:MM TZ</small><br>
// <strong>Status</strong> - text</p>`, newest first and without a year; incident.io writes only the latest.
import type { Incident } from '../../model.js';
import { collect, decodeEntities, finishIncident, htmlToText, normalizeStatus, toIso } from './common.js';
import { parseFeed, type FeedItem } from './feed.js';
import type { AdapterContext, AdapterResult } from './types.js';

const MAINTENANCE_WORDS = new Set(['scheduled', 'in progress', 'verifying', 'completed']);
const CLOSED_WORDS = new Set(['resolved', 'completed', 'postmortem']);
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

export function parseStatuspageFeed(body: string, context: AdapterContext): AdapterResult {
  const feed = parseFeed(body, context.source);
  const problems: string[] = [];
  const incidents: Incident[] = collect(
    feed.items.map((item) => toIncident(item, context)),
    problems,
  );
  return { incidents, problems };
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

function toIncident(item: FeedItem, context: AdapterContext): Incident | string {
  // Update lines have no year; the entry's latest timestamp bounds them (an incident can outlast `published`).
  const reference = [item.published, item.updated]
    .filter((time): time is string => time !== undefined)
    .sort()
    .at(-1);
  const updates = /<small>/i.test(item.html)
    ? statuspageUpdates(item.html, reference)
    : incidentIoUpdates(item, reference);
  const newest =
    updates.reduce<FeedUpdate | undefined>(
      (best, update) => (update.at && (!best?.at || update.at > best.at) ? update : best),
      undefined,
    ) ?? updates[0];
  const word = (newest?.status ?? '').toLowerCase();
  const closed = CLOSED_WORDS.has(word);
  const maintenance =
    updates.some((update) => MAINTENANCE_WORDS.has(update.status.toLowerCase())) || /\bmaintenance\b/i.test(item.title);
  const times = updates
    .map((update) => update.at)
    .filter((at): at is string => at !== undefined)
    .sort();
  return finishIncident(
    {
      id: incidentId(item),
      title: item.title,
      url: item.link?.replace(/([^:/])\/\/+/g, '$1/'),
      status: normalizeStatus(word.replace(' ', '_'), closed),
      impact: maintenance ? 'maintenance' : 'unknown',
      kind: maintenance ? 'maintenance' : 'incident',
      components: affectedComponents(item.summaryHtml ?? item.html),
      startedAt: times[0] ?? item.published ?? item.updated,
      resolvedAt: closed ? (newest?.at ?? item.updated ?? null) : null,
      updates: updates.map((update) => ({ ...update, status: update.status.toLowerCase() })),
    },
    context,
  );
}

function statuspageUpdates(html: string, reference: string | undefined): FeedUpdate[] {
  return html
    .split(/<p>/i)
    .filter((part) => part.trim() !== '')
    .map((part) => {
      const small = /<small>([\s\S]*?)<\/small>/i.exec(part);
      const strong = /<strong>([\s\S]*?)<\/strong>/i.exec(part);
      const rest = strong ? part.slice((strong.index ?? 0) + strong[0].length).replace(/^\s*-\s*/, '') : part;
      return {
        at: small ? updateTime(htmlToText(small[1] ?? ''), reference) : undefined,
        status: strong ? htmlToText(strong[1] ?? '') : 'update',
        body: htmlToText(rest),
      };
    });
}

/** `Mar  9, 17:45 UTC` (no year): the year is the reference's, or the one before when that puts it in the future. */
export function updateTime(text: string, reference: string | undefined): string | undefined {
  const match = /([A-Za-z]{3})\s+(\d{1,2}),\s*(\d{1,2}):(\d\d)\s*([A-Za-z]{1,4})?/.exec(text);
  if (!match || !reference) return undefined;
  const month = MONTHS.indexOf((match[1] ?? '').toLowerCase());
  if (month < 0) return undefined;
  const pad = (value: string | undefined) => (value ?? '').padStart(2, '0');
  const refYear = Number(reference.slice(0, 4));
  for (const year of [refYear, refYear - 1]) {
    const iso = toIso(`${pad(match[2])} ${MONTHS[month]} ${year} ${pad(match[3])}:${match[4]}:00 ${match[5] ?? 'UTC'}`);
    // A day of slack: the feed's own timestamps are rounded differently from the update lines.
    if (iso && Date.parse(iso) <= Date.parse(reference) + 86_400_000) return iso;
  }
  return undefined;
}

function incidentIoUpdates(item: FeedItem, reference: string | undefined): FeedUpdate[] {
  const status = /<b>\s*Status:\s*([^<]+)<\/b>/i.exec(item.html);
  const body = item.html
    .replace(/<b>\s*Status:[^<]*<\/b>/i, '')
    .replace(/<b>\s*Affected components\s*<\/b>[\s\S]*$/i, '');
  return [
    {
      at: item.updated ?? reference,
      status: status ? decodeEntities(status[1] ?? '').trim() : 'update',
      body: htmlToText(body),
    },
  ];
}

/** incident.io lists `<b>Affected components</b><ul><li>Search (Degraded performance)</li></ul>`. */
function affectedComponents(html: string): string[] {
  const section = /<b>\s*Affected components\s*<\/b>([\s\S]*)$/i.exec(html);
  if (!section) return [];
  return [...(section[1] ?? '').matchAll(/<li>([\s\S]*?)<\/li>/gi)]
    .map((match) => htmlToText(match[1] ?? '').replace(/\s*\([^)]*\)\s*$/, ''))
    .filter(Boolean);
}
