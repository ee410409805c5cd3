// Atom 1.0 (RFC 4287, https://www.rfc-editor.org/rfc/rfc4287) feed of incidents, for feed readers and chat bots.
import type { Incident, ReplayWindow } from '../model.js';
import { cleanLine, cleanText } from '../sanitize.js';
import { formatRange, formatUtc } from '../time.js';
import { isHttpUrl } from './shared.js';
import { escapeXml as x } from './xml.js';
import { byText } from '../text-order.js';

export interface FeedEntry {
  incident: Incident;
  providerName: string;
  /** The components that matter to the reader: the stack's touched ones, or the incident's own. */
  components: string[];
  replay: ReplayWindow;
}

export interface FeedDocument {
  /** A permanent IRI: the same subscription must keep the same id from run to run. */
  id: string;
  title: string;
  subtitle?: string;
  /** Used for `<updated>` when there is no entry (a feed must still say when it was made). */
  now: Date;
  entries: FeedEntry[];
}

export function renderAtom(feed: FeedDocument): string {
  const entries = [...feed.entries].sort(
    (a, b) => byText(entryUpdated(b.incident), entryUpdated(a.incident)) || byText(a.incident.id, b.incident.id),
  );
  const updated =
    entries.length > 0 ? entryUpdated((entries[0] as FeedEntry).incident) : rfc3339(feed.now.toISOString());
  const out = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${x(feed.id)}</id>`,
    `  <title type="text">${x(cleanLine(feed.title, 300))}</title>`,
    ...(feed.subtitle ? [`  <subtitle type="text">${x(cleanLine(feed.subtitle, 500))}</subtitle>`] : []),
    `  <updated>${updated}</updated>`,
    // Atom wants an author on the feed unless every entry has one; the feed is made by downstack, not the providers.
    '  <author><name>downstack</name></author>',
    '  <generator uri="https://www.npmjs.com/package/downstack">downstack</generator>',
    ...entries.flatMap(renderEntry),
    '</feed>',
    '',
  ];
  return out.join('\n');
}

function renderEntry(entry: FeedEntry): string[] {
  const { incident } = entry;
  const open = entry.replay.to === null;
  const title = `${entry.providerName}: ${cleanLine(incident.title, 200)}${open ? ' (open)' : ''}`;
  const components = entry.components.length > 0 ? entry.components.join(', ') : 'the whole provider';
  const summary = `${open ? 'Open' : 'Resolved'} · impact ${incident.impact} · ${components}${incident.regions.length ? ` in ${incident.regions.join(', ')}` : ''} · replay ${formatRange(entry.replay.from, entry.replay.to)}`;
  const updates = [...incident.updates].sort((a, b) => byText(b.at, a.at));
  const content = [
    summary,
    ...updates.map((update) => `${formatUtc(update.at)} · ${update.status}: ${cleanText(update.body, 2000)}`),
  ].join('\n\n');
  return [
    '  <entry>',
    `    <id>${x(incidentId(incident))}</id>`,
    `    <title type="text">${x(cleanLine(title, 300))}</title>`,
    `    <updated>${entryUpdated(incident)}</updated>`,
    `    <published>${rfc3339(incident.startedAt)}</published>`,
    ...(isHttpUrl(incident.url) ? [`    <link rel="alternate" type="text/html" href="${x(incident.url)}"/>`] : []),
    `    <category term="${x(incident.provider)}" label="${x(cleanLine(entry.providerName, 100))}"/>`,
    `    <summary type="text">${x(cleanLine(summary, 600))}</summary>`,
    `    <content type="text">${x(content)}</content>`,
    '  </entry>',
  ];
}

/** `urn:downstack:incident:<provider>:<id>`; the parts are percent-encoded so any incident id stays a valid IRI. */
export function incidentId(incident: Pick<Incident, 'provider' | 'id'>): string {
  return `urn:downstack:incident:${encodeURIComponent(incident.provider)}:${encodeURIComponent(incident.id)}`;
}

/** The last time anything happened to the incident: its latest update, resolution or start. */
function entryUpdated(incident: Incident): string {
  const times = [incident.startedAt, incident.resolvedAt, ...incident.updates.map((update) => update.at)].filter(
    (time): time is string => typeof time === 'string',
  );
  return rfc3339(times.reduce((latest, time) => (Date.parse(time) > Date.parse(latest) ? time : latest)));
}

/** The index allows `…T19:39Z`; RFC 3339 wants the seconds. */
function rfc3339(iso: string): string {
  return new Date(iso).toISOString().replace('.000Z', 'Z');
}
