// incidentlib-style case records (id, org, date, title{lang}, summary{lang}, symptoms_text{lang}, timeline, sources[]):
// post-incident write-ups whose times live in prose, sometimes only in one language.
import { ParseError } from '../../errors.js';
import { isRecord, parseJsonText } from '../../json-text.js';
import type { EntryProblem, ReaderContext, ReaderResult } from '../types.js';
import type { IncidentUpdate } from '../../model.js';
import { emptyDraft, type DraftIncident, type WindowClaim } from '../draft.js';
import { parseCompactDuration } from '../time/durations.js';
import { lineLocator } from '../../line-locator.js';
import { readProse } from '../text/prose.js';
import { parseLocalDate } from '../time/extract.js';
import { byText } from '../../text-order.js';

const TEXT_FIELDS = ['symptoms_text', 'summary', 'detection', 'trigger'] as const;

export function isIncidentlibRecord(data: unknown): boolean {
  const records = Array.isArray(data) ? data : [data];
  return (
    records.length > 0 &&
    records.every(
      (record) =>
        isRecord(record) &&
        typeof record.org === 'string' &&
        (isRecord(record.title) || typeof record.title === 'string') &&
        (isRecord(record.timeline) || isRecord(record.symptoms_text) || isRecord(record.summary)),
    )
  );
}

export function parseIncidentlib(text: string, context: ReaderContext): ReaderResult {
  const data = context.json ?? parseJsonText(text, context.source);
  const records = (Array.isArray(data) ? data : [data]).filter(isRecord);
  const lineAt = lineLocator(text);
  const problems: EntryProblem[] = [];
  const drafts: DraftIncident[] = [];
  for (const record of records) {
    try {
      drafts.push(draftFrom(record, text, context.source, lineAt));
    } catch (error) {
      if (!(error instanceof ParseError)) throw error;
      problems.push({
        ...(error.line ? { line: error.line } : {}),
        entry: english(record.title) || String(record.id ?? ''),
        message: error.message,
      });
    }
  }
  return { drafts, problems };
}

function draftFrom(
  record: Record<string, unknown>,
  text: string,
  file: string,
  lineAt: (offset: number) => number,
): DraftIncident {
  const recordId = String(record.id ?? '');
  const offset = Math.max(0, text.indexOf(JSON.stringify(recordId)));
  const line = lineAt(offset);
  const draft = emptyDraft(file, 'incidentlib', line);
  const date = typeof record.date === 'string' ? parseLocalDate(record.date) : undefined;
  if (!date)
    throw new ParseError(file, line, `record ${recordId || '(no id)'}: "date" must be an ISO date (2025-03-21)`);

  const sources = (Array.isArray(record.sources) ? record.sources : [])
    .filter(isRecord)
    .map((source) => String(source.url ?? ''))
    .filter(Boolean);
  const statusUrl = sources.find((url) => /\/incidents\/[a-z0-9]+/i.test(url));
  draft.id = statusUrl ? (/\/incidents\/([a-z0-9]+)/i.exec(statusUrl)?.[1] ?? recordId) : recordId;
  draft.url = statusUrl ?? sources[0] ?? (typeof record.url === 'string' ? record.url : '');
  draft.title = english(record.title);
  draft.status = 'resolved';

  const claims: WindowClaim[] = [];
  const posts: IncidentUpdate[] = [];
  const english_: string[] = [];
  for (const field of TEXT_FIELDS) {
    for (const [lang, value] of languages(record[field])) {
      const reading = readProse(value, { anchorDate: date });
      claims.push(...reading.claims);
      posts.push(...reading.posts);
      draft.notes.push(...reading.notes);
      if (lang === 'en') {
        english_.push(value);
        draft.durations.push(...reading.durations);
      }
    }
  }
  // Several languages restate the same window; keep each distinct statement once.
  draft.claims = [...new Map(claims.map((claim) => [`${claim.kind}|${claim.from}|${claim.to}`, claim])).values()];
  draft.updates = [...new Map(posts.map((post) => [post.at, post])).values()].sort((a, b) => byText(a.at, b.at));
  const timeline = isRecord(record.timeline) ? record.timeline : {};
  if (typeof timeline.resolved_after === 'string') {
    const minutes = parseCompactDuration(timeline.resolved_after);
    if (minutes === undefined)
      throw new ParseError(
        file,
        line,
        `record ${recordId}: timeline.resolved_after "${timeline.resolved_after}" is not a duration like 31m or 1h 39m`,
      );
    draft.durations.push({
      minutes,
      approximate: false,
      written: `timeline.resolved_after: ${timeline.resolved_after}`,
    });
  }
  if (draft.updates.length === 0 && draft.claims.length === 0) draft.dateOnly = record.date as string;

  const scope = isRecord(record.impact) && typeof record.impact.scope === 'string' ? record.impact.scope : '';
  draft.componentText = [scope, ...languages(record.symptoms_text).map(([, value]) => value)].join('\n');
  const rootCause = typeof record.root_cause === 'string' ? record.root_cause : '';
  const named = Array.isArray(record.domain)
    ? record.domain.filter((value): value is string => typeof value === 'string')
    : [];
  draft.hints = {
    owners: [String(record.org), typeof record.org_slug === 'string' ? record.org_slug : ''].filter(Boolean),
    urls: sources,
    text: [draft.title, ...english_].join('\n'),
    ...(/cloud|provider|vendor|third|upstream/i.test(rootCause) ? { upstream: named } : {}),
  };
  return draft;
}

function languages(value: unknown): Array<[string, string]> {
  if (typeof value === 'string') return [['en', value]];
  if (!isRecord(value)) return [];
  return Object.entries(value).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1].trim() !== '',
  );
}

function english(value: unknown): string {
  const all = languages(value);
  return all.find(([lang]) => lang === 'en')?.[1] ?? all[0]?.[1] ?? '';
}
