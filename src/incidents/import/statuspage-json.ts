// Statuspage API v2 incidents (https://developer.statuspage.io/#tag/incidents): one incident, or a page's incidents.json.
import { ParseError } from '../../errors.js';
import { isRecord } from '../../json-text.js';
import type { IncidentImpact, IncidentUpdate } from '../../model.js';
import { cleanText } from '../../sanitize.js';
import { emptyDraft, statusFromLabel, type DraftIncident } from './draft.js';
import { htmlToText } from './html.js';
import { machineTimeToUtc } from './iso.js';
import { lineLocator } from '../../line-locator.js';
import { readProse } from './prose.js';

const IMPACTS = new Set(['none', 'minor', 'major', 'critical', 'maintenance']);

/** True for `{incident: {...}}`, `{incidents: [...]}` with Statuspage fields, or a bare incident object. */
export function isStatuspageJson(data: unknown): boolean {
  const incidents = statuspageIncidents(data);
  return incidents !== undefined && incidents.length > 0;
}

function statuspageIncidents(data: unknown): Array<Record<string, unknown>> | undefined {
  if (!isRecord(data)) return undefined;
  const looksLikeIncident = (value: unknown): boolean =>
    isRecord(value) && Array.isArray(value.incident_updates) && typeof value.id === 'string';
  if (looksLikeIncident(data)) return [data];
  if (looksLikeIncident(data.incident)) return [data.incident as Record<string, unknown>];
  const lists = [data.incidents, data.scheduled_maintenances].filter(Array.isArray) as unknown[][];
  if (lists.length === 0) return undefined;
  const all = lists.flat();
  return all.every(looksLikeIncident) ? (all as Array<Record<string, unknown>>) : undefined;
}

export function parseStatuspageJson(data: unknown, text: string, file: string): DraftIncident[] {
  const incidents = statuspageIncidents(data) ?? [];
  const page = isRecord(data) && isRecord(data.page) ? data.page : undefined;
  const lineAt = lineLocator(text);
  // Incidents appear in the text in array order, so each id is searched for after the previous one.
  let cursor = 0;
  return incidents.map((incident) => {
    const found = text.indexOf(JSON.stringify(String(incident.id)), cursor);
    if (found >= 0) cursor = found;
    return draftFrom(incident, page, { text, file, lineAt, offset: Math.max(found, 0) });
  });
}

interface Source {
  text: string;
  file: string;
  lineAt: (offset: number) => number;
  offset: number;
}

function draftFrom(
  incident: Record<string, unknown>,
  page: Record<string, unknown> | undefined,
  { text, file, lineAt, offset }: Source,
): DraftIncident {
  const id = String(incident.id);
  const line = lineAt(offset);
  const at = (key: string) => {
    const value = incident[key];
    if (value === null || value === undefined) return undefined;
    const utc = machineTimeToUtc(value);
    if (!utc)
      throw new ParseError(
        file,
        lineOfKeyAfter({ text, lineAt }, key, offset) ?? line,
        `incident ${id}: ${key} "${String(value)}" is not a timestamp with a time zone`,
      );
    return utc;
  };
  const draft = emptyDraft(file, 'statuspage-json', line);
  draft.id = id;
  draft.title = typeof incident.name === 'string' ? incident.name : '';
  draft.url = typeof incident.shortlink === 'string' ? incident.shortlink : '';
  const status = typeof incident.status === 'string' ? statusFromLabel(incident.status) : undefined;
  if (status) draft.status = status;
  if (typeof incident.impact === 'string' && IMPACTS.has(incident.impact))
    draft.impact = incident.impact as IncidentImpact;
  if (incident.scheduled_for || draft.impact === 'maintenance') draft.kind = 'maintenance';

  const updates: IncidentUpdate[] = [];
  for (const raw of Array.isArray(incident.incident_updates) ? incident.incident_updates : []) {
    if (!isRecord(raw)) continue;
    const stamp = machineTimeToUtc(raw.display_at) ?? machineTimeToUtc(raw.created_at);
    if (!stamp) throw new ParseError(file, line, `incident ${id}: an update has no created_at/display_at timestamp`);
    const components = Array.isArray(raw.affected_components)
      ? raw.affected_components
          .filter(isRecord)
          .map((item) => String(item.name ?? ''))
          .filter(Boolean)
      : [];
    updates.push({
      at: stamp,
      status: typeof raw.status === 'string' ? raw.status : 'update',
      body: cleanText(htmlToText(String(raw.body ?? '')).text),
      components,
    });
  }
  draft.updates = updates.sort((a, b) => a.at.localeCompare(b.at));
  const listed = Array.isArray(incident.components)
    ? incident.components
        .filter(isRecord)
        .map((item) => String(item.name ?? ''))
        .filter(Boolean)
    : [];
  draft.components = [...new Set([...listed, ...updates.flatMap((update) => update.components)])];

  const startedAt = at('started_at') ?? at('created_at') ?? draft.updates[0]?.at;
  if (startedAt) draft.startedAt = startedAt;
  const resolvedAt = at('resolved_at');
  const closed = status === 'resolved' || status === 'postmortem' || status === 'completed';
  draft.resolvedAt =
    resolvedAt ??
    (closed ? (draft.updates.filter((update) => update.status !== 'postmortem').at(-1)?.at ?? null) : null);
  if (startedAt && draft.resolvedAt && draft.resolvedAt < startedAt) {
    throw new ParseError(
      file,
      lineOfKeyAfter({ text, lineAt }, 'resolved_at', offset) ?? line,
      `incident ${id}: resolved_at ${draft.resolvedAt} is before it started (${startedAt})`,
    );
  }

  // Update bodies and the postmortem often say when impact really began ("errors began at 19:39 UTC").
  const prose = [
    ...draft.updates.map((update) => update.body),
    typeof incident.postmortem_body === 'string' ? htmlToText(incident.postmortem_body).text : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  const reading = readProse(prose, startedAt ? { anchorMs: Date.parse(startedAt) } : {});
  if (reading.problems[0]) throw new ParseError(file, line, `incident ${id}: ${reading.problems[0].message}`);
  draft.claims = reading.claims;
  draft.durations = reading.durations;
  draft.notes = reading.notes;

  draft.hints = {
    owners: [typeof page?.name === 'string' ? page.name : ''],
    urls: [typeof page?.url === 'string' ? page.url : '', draft.url].filter(Boolean),
    text: `${draft.title}\n${prose}`,
    pageIds: [page?.id, incident.page_id].filter((value): value is string => typeof value === 'string'),
  };
  return draft;
}

function lineOfKeyAfter(
  { text, lineAt }: Pick<Source, 'text' | 'lineAt'>,
  key: string,
  from: number,
): number | undefined {
  const index = text.indexOf(`"${key}"`, from);
  return index >= 0 ? lineAt(index) : undefined;
}
