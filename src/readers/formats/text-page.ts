// Plain-text, Markdown or HTML incident pages and postmortems: status-page update timelines ("resolved Sep 08, 2020,
// 01:01 PM UTC"), "Key events" lists, inline "UPDATE 12:32 PM EDT -" stamps and free prose with times.
import { ParseError } from '../../errors.js';
import type { ReaderContext, ReaderResult } from '../types.js';
import type { IncidentImpact, IncidentUpdate } from '../../model.js';
import { cleanText } from '../../sanitize.js';
import { emptyDraft, statusFromLabel, statusFromText, type DraftIncident } from '../draft.js';
import { htmlToText, looksLikeHtml } from '../text/html.js';
import { readProse, zoneNotes } from '../text/prose.js';
import { extractTimes, type ExtractOptions, type TimeMention } from '../time/extract.js';
import { byText } from '../../text-order.js';

const STATUS =
  '(?:investigating|identified|monitoring|update|resolved|post-?mortem|completed|scheduled|in progress|verifying)';
const HEADER = new RegExp(
  `^[ \\t]*(?:[-*•]|\\d+\\.)?[ \\t]*(?<label>${STATUS})[ \\t]*[-–:]?[ \\t]*(?<stamp>\\S.*)$`,
  'i',
);
const KEY_EVENT =
  /^[ \t]*(?:[-*•][ \t]*)?(?<label>first detected|detected|impact (?:started|began)|started|incident (?:declared|opened|created)|declared|reported|acknowledged|(?:impact )?(?:mitigated|repaired|recovered|restored|ended)|resolved|closed)[ \t]*:?[ \t]+(?<stamp>\S.*)$/i;
const INLINE_UPDATE =
  /\b(?:UPDATE|Update)[ \t]+(?<stamp>\d{1,2}:\d\d(?:[ \t]*[AaPp]\.?[Mm]\.?)?(?:[ \t]+[A-Z]{1,5})?)[ \t]*[-–:][ \t]*/g;
const INCIDENT_WORDS =
  /\b(?:incident|outage|degrad\w*|disruption|downtime|unavailable|errors?|resolved|investigating|post-?mortem|root cause|impact\w*)\b/i;
const STATUS_URL = /https?:\/\/[^\s)"'<>]+\/incidents\/([a-z0-9]{6,})/i;

interface Block {
  start: number;
  text: string;
  update?: IncidentUpdate;
}

/** A page is one incident: what cannot be read makes the whole page unreadable, with the line that says why. */
export function parseTextPage(input: string, context: ReaderContext): ReaderResult {
  return { drafts: [textPageDraft(input, context.source)], problems: [] };
}

function textPageDraft(input: string, file: string): DraftIncident {
  const html = looksLikeHtml(input) ? htmlToText(input) : undefined;
  const source = html ? html.text : input;
  const components = explicitComponents(source);
  const text = normalize(source);
  const draft = emptyDraft(file, html ? 'html' : 'text', 1);

  // First pass: every stamped line (update header or key event), placed without an anchor since each carries a date.
  const lines = splitLines(text);
  const posted = postedStamps(lines);
  const blocks: Block[] = [{ start: 0, text: '' }];
  const stamps: TimeMention[] = [];
  for (const [number, { start, line }] of lines.entries()) {
    const copied = posted.get(number);
    if (copied === null) continue;
    if (copied) {
      stamps.push(copied.stamp);
      blocks.push({
        start,
        text: copied.rest ? `${copied.rest}\n` : '',
        update: { at: copied.stamp.at, status: copied.status, body: '', components: [] },
      });
      continue;
    }
    const event = KEY_EVENT.exec(line);
    const header = event ? undefined : HEADER.exec(line);
    const found = event ?? header;
    const stamp = found ? extractTimes(found.groups?.stamp ?? '').mentions[0] : undefined;
    if (
      found &&
      stamp &&
      stamp.dateFrom === 'written' &&
      (found.groups?.stamp ?? '').trim().length <= stamp.written.length + 4
    ) {
      stamps.push(stamp);
      const label = (found.groups?.label ?? '').toLowerCase();
      if (event) {
        const role = keyEventRole(label);
        if (role === 'from') draft.claims.push({ from: stamp.at, kind: 'impact', quote: line.trim() });
        else if (role === 'to') draft.claims.push({ to: stamp.at, kind: 'impact', quote: line.trim() });
        else
          blocks.push({ start, text: '', update: { at: stamp.at, status: role, body: line.trim(), components: [] } });
        continue;
      }
      blocks.push({
        start,
        text: '',
        update: { at: stamp.at, status: statusFromLabel(label) ?? 'update', body: '', components: [] },
      });
      continue;
    }
    const block = blocks.at(-1) as Block;
    block.text += `${line}\n`;
  }

  const live = blocks
    .map((block) => block.update)
    .filter((update): update is IncidentUpdate => update !== undefined && update.status !== 'postmortem');
  const dated = extractTimes(text).mentions.find((mention) => mention.dateFrom === 'written');
  const anchorMs =
    live.map((update) => Date.parse(update.at)).sort((a, b) => a - b)[0] ?? (dated ? Date.parse(dated.at) : undefined);
  const dateOnly = anchorMs === undefined ? firstDate(text) : undefined;
  const options: ExtractOptions = anchorMs !== undefined ? { anchorMs } : dateOnly ? { anchorDate: dateOnly } : {};

  const mentions: TimeMention[] = [...stamps];
  for (const block of blocks) {
    const _bodyStart = block.update ? text.indexOf('\n', block.start) + 1 : 0;
    const inline = inlineUpdates(block.text, block.update ? { anchorMs: Date.parse(block.update.at) } : options);
    const skip = (mention: TimeMention) => inline.stamps.has(mention.index);
    const reading = readProse(
      block.text,
      block.update && block.update.status !== 'postmortem' ? { anchorMs: Date.parse(block.update.at) } : options,
      skip,
    );
    if (block.update) {
      if (!block.update.body) block.update.body = cleanText(block.text.trim());
      draft.updates.push(block.update);
    }
    draft.updates.push(...inline.updates, ...reading.posts);
    draft.claims.push(...reading.claims);
    draft.durations.push(...reading.durations);
    draft.notes.push(...reading.notes);
    mentions.push(...reading.mentions, ...inline.mentions);
  }
  draft.updates.sort((a, b) => byText(a.at, b.at));
  draft.notes.unshift(...zoneNotes(mentions));

  if (mentions.length === 0 && draft.updates.length === 0) {
    if (!dateOnly || !INCIDENT_WORDS.test(text)) {
      throw new ParseError(
        file,
        1,
        'no incident found: expected Statuspage JSON, an Atom/RSS history feed, an incidentlib record, or an incident page with dates and times',
      );
    }
    draft.dateOnly = `${dateOnly.y}-${String(dateOnly.m).padStart(2, '0')}-${String(dateOnly.d).padStart(2, '0')}`;
  } else if (!INCIDENT_WORDS.test(text)) {
    throw new ParseError(
      file,
      1,
      'no incident found: the text has times but says nothing about an incident, outage or impact',
    );
  }

  draft.title = cleanText(html?.title ?? titleOf(text), 300);
  const statusUrl = STATUS_URL.exec(text);
  draft.id = statusUrl?.[1] ?? slugId(draft);
  draft.url = statusUrl?.[0] ?? '';
  const lastLive = draft.updates.filter((update) => update.status !== 'postmortem').at(-1);
  const status = lastLive ? statusFromLabel(lastLive.status) : undefined;
  if (status) draft.status = status;
  else if (
    draft.updates.some((update) => update.status === 'postmortem') ||
    /\(resolved\)|\bresolved\b/i.test(draft.title)
  )
    draft.status = 'resolved';
  const impact = /\b(critical|major|minor)\b (?:incident|outage)/i.exec(text)?.[1]?.toLowerCase();
  if (impact) draft.impact = impact as IncidentImpact;
  draft.components = components;
  draft.componentText = components.join('\n');
  // The title and the opening lines say whose incident this is; later text may name upstream providers.
  draft.hints = { owners: [draft.title, text.slice(0, 200)], urls: urlsIn(text), text };
  return draft;
}

/**
 * A status page copied from the browser puts the stamp after the update: "Resolved - text" (or "Resolved" alone on a
 * line, text below), then "Posted 3 days ago. Aug 10, 2021 - 21:24 UTC". Maps each label line to its stamp, and each
 * "Posted" line to null so it is not read again as prose.
 */
function postedStamps(
  lines: Array<{ line: string }>,
): Map<number, { stamp: TimeMention; status: string; rest: string } | null> {
  const found = new Map<number, { stamp: TimeMention; status: string; rest: string } | null>();
  const label = new RegExp(`^[ \\t]*(${STATUS})[ \\t]*(?:[-–:][ \\t]*(.*))?$`, 'i');
  lines.forEach(({ line }, number) => {
    if (!/^[ \t]*Posted\b/i.test(line)) return;
    const stamp = extractTimes(line).mentions.find((mention) => mention.dateFrom === 'written');
    if (!stamp) return;
    for (let back = number - 1; back >= 0 && back >= number - 40; back--) {
      if (found.has(back) || /^[ \t]*Posted\b/i.test(lines[back]?.line ?? '')) break;
      const match = label.exec(lines[back]?.line ?? '');
      if (!match) continue;
      found.set(back, { stamp, status: statusFromLabel(match[1] ?? '') ?? 'update', rest: match[2] ?? '' });
      found.set(number, null);
      break;
    }
  });
  return found;
}

function keyEventRole(label: string): 'from' | 'to' | string {
  if (/detected|started|began/.test(label)) return 'from';
  if (/mitigated|repaired|recovered|restored|ended/.test(label)) return 'to';
  if (/resolved|closed/.test(label)) return 'resolved';
  return 'investigating';
}

/** "UPDATE 12:32 PM EDT - …" stamps inside one archived update: each is an update of its own. */
function inlineUpdates(text: string, options: ExtractOptions) {
  const updates: IncidentUpdate[] = [];
  const stamps = new Set<number>();
  const mentions: TimeMention[] = [];
  const matches = [...text.matchAll(INLINE_UPDATE)];
  const all = new Map(
    (matches.length > 0 ? extractTimes(text, options).mentions : []).map((mention) => [mention.index, mention]),
  );
  matches.forEach((match, i) => {
    const stampAt = (match.index ?? 0) + match[0].indexOf(match.groups?.stamp ?? '');
    const mention = all.get(stampAt);
    if (!mention) return;
    stamps.add(mention.index);
    mentions.push(mention);
    const body = text.slice((match.index ?? 0) + match[0].length, matches[i + 1]?.index ?? text.length).trim();
    updates.push({
      at: mention.at,
      status: statusFromText(body.split(/(?<=[.!?])\s/)[0] ?? body),
      body: cleanText(body.slice(0, 2000)),
      components: [],
    });
  });
  return { updates, stamps, mentions };
}

/** Markdown emphasis and links out; status words glued to dates ("monitoringAug 10") split; line count kept. */
function normalize(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      // Bounded spans: a long run of "**" or "[" without its partner costs a bounded look, not the rest of the line.
      .replace(
        /\*\*([^*\n]{1,300})\*\*|__([^_\n]{1,300})__/g,
        (_, a: string | undefined, b: string | undefined) => a ?? b ?? '',
      )
      .replace(/\[([^\]\n[]{1,300})\]\(([^)\s]{1,2000})\)/g, '$1 ($2)')
      .replace(/^[ \t]*#{1,6}[ \t]+/gm, '')
      .replace(
        new RegExp(`(${STATUS})(?=(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \\d|\\d{4}-\\d\\d)`, 'gi'),
        '$1 ',
      )
  );
}

function splitLines(text: string): Array<{ start: number; line: string }> {
  const out: Array<{ start: number; line: string }> = [];
  let start = 0;
  for (const line of text.split('\n')) {
    out.push({ start, line });
    start += line.length + 1;
  }
  return out;
}

/** Affected components as the document lists them ("**Components impacted** Controller", "affecting Web App,"). */
function explicitComponents(text: string): string[] {
  const found: string[] = [];
  const bold = /\*\*(?:components? (?:impacted|affected)|affected (?:components?|services?))\*\*:?([^*\n]{0,300})/gi;
  for (const match of text.matchAll(bold)) found.push(...splitList((match[1] ?? '').trim()));
  const heading =
    /^[ \t]*(?:components? (?:impacted|affected)|affected (?:components?|services?))[ \t]*:?([^\n]{0,300})\n((?:[ \t]*[-*•][^\n]{0,300}\n?){0,50})/gim;
  for (const match of text.matchAll(heading)) {
    found.push(...splitList((match[1] ?? '').trim()));
    for (const item of (match[2] ?? '').split('\n')) found.push(...splitList(item.replace(/^[ \t]*[-*•][ \t]*/, '')));
  }
  for (const match of text.matchAll(/\bThis (?:incident|maintenance) affected:?([^\n]{0,300})/gi))
    found.push(...splitList((match[1] ?? '').trim().replace(/\.$/, '')));
  const affecting = /\baffecting ([A-Z][^,.;:\n]{1,60}?)(?=,|\.|;| lasting\b| for\b|\n)/g;
  for (const match of text.matchAll(affecting)) found.push(...splitList(match[1] ?? ''));
  return [...new Set(found.map((item) => cleanText(item.trim(), 120)).filter((item) => item.length > 1))];
}

function splitList(value: string): string[] {
  return value
    .split(/,|;|\band\b/)
    .map((item) => item.trim())
    .filter(Boolean);
}

function titleOf(text: string): string {
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    // Breadcrumbs ("Companies/Trello/Incidents") and bare list markers are not titles.
    // Site names ("GitHub Status") head copied status pages; the incident's own title comes next.
    if (
      line.length < 4 ||
      /^[\w .-]+(?:\/[\w .-]+)+$/.test(line) ||
      /^[-*•\d.]+$/.test(line) ||
      /^[\w .-]{1,40} status$/i.test(line)
    )
      continue;
    const title = line.replace(/^[-*•]\s*/, '');
    // A summary sentence standing in for a title: its first sentence is enough.
    return title.length > 120 ? (/^.{20,}?[.!?](?=\s)/.exec(title)?.[0] ?? title) : title;
  }
  return '';
}

function firstDate(text: string) {
  const match = /\b(\d{4})-(\d\d)-(\d\d)\b/.exec(text) ?? null;
  if (match) return { y: Number(match[1]), m: Number(match[2]), d: Number(match[3]) };
  const written =
    /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})\b/i.exec(text);
  if (!written) return undefined;
  const m =
    ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'].indexOf(
      (written[1] ?? '').toLowerCase(),
    ) + 1;
  return { y: Number(written[3]), m, d: Number(written[2]) };
}

function slugId(draft: DraftIncident): string {
  const day = (draft.updates[0]?.at ?? draft.claims.find((claim) => claim.from)?.from ?? '').slice(0, 10);
  const slug = draft.title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
  return `text-${day || draft.dateOnly || 'undated'}-${slug || 'incident'}`;
}

function urlsIn(text: string): string[] {
  const urls = [...text.matchAll(/https?:\/\/[^\s)"'<>]+/g)].map((match) => match[0]);
  // Pages often name their status page without a scheme ("View on trello.status.atlassian.com").
  const hosts = [
    ...text.matchAll(
      /(?<![\w./-])((?:[a-z0-9-]+\.)*status\.[a-z0-9.-]+\.[a-z]{2,}|status\.[a-z0-9-]+\.[a-z]{2,})(?![\w-])/gi,
    ),
  ].map((match) => `https://${match[1]}`);
  return [...new Set([...urls, ...hosts])];
}
