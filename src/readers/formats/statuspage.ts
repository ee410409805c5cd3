// Atlassian Statuspage public API v2 (documented on every page's /api, e.g. https://www.githubstatus.com/api):
// incidents.json, incidents/unresolved.json, scheduled-maintenances.json, components.json, summary.json, and one
// incident saved as `{incident}` or bare. incident.io serves the same shapes with nulls for empty lists and no
// components, which this reads as well.
import { isRecord, parseJsonText } from '../../json-text.js';
import { lineLocator } from '../../line-locator.js';
import { type DraftIncident, platformDraft, sortOut } from '../draft.js';
import { arr, componentName, names, rec, str } from '../platform.js';
import { isClosedStatus, normalizeImpact, normalizeStatus } from '../status.js';
import { fragmentText } from '../text/html.js';
import { legacyPosts } from './statuspage-legacy.js';
import { machineTime } from '../time/machine.js';
import { type EntryProblem, type ReaderContext, ReaderError, type ReaderResult } from '../types.js';

/** True for `{incident: {...}}`, `{incidents: [...]}` with Statuspage fields, or a bare incident object. */
export function isStatuspageJson(data: unknown): boolean {
  const found = statuspageItems(data);
  return found !== undefined && found.incidents.length + found.maintenances.length > 0;
}

const looksLikeIncident = (value: unknown): boolean =>
  isRecord(value) && Array.isArray(value.incident_updates) && typeof value.id === 'string';

function statuspageItems(
  data: unknown,
): { incidents: Array<Record<string, unknown>>; maintenances: Array<Record<string, unknown>> } | undefined {
  if (!isRecord(data)) return undefined;
  const body: Record<string, unknown> = data;
  if (looksLikeIncident(body)) return { incidents: [body], maintenances: [] };
  if (looksLikeIncident(body.incident)) return { incidents: [rec(body.incident)], maintenances: [] };
  const incidents = arr(body.incidents);
  const maintenances = arr(body.scheduled_maintenances);
  if (![...incidents, ...maintenances].every(looksLikeIncident)) return undefined;
  return {
    incidents: incidents as Array<Record<string, unknown>>,
    maintenances: maintenances as Array<Record<string, unknown>>,
  };
}

export function parseStatuspage(text: string, context: ReaderContext): ReaderResult {
  const data = context.json ?? parseJsonText(text, context.source);
  const body = rec(data);
  const hasAny = ['incidents', 'scheduled_maintenances', 'components', 'incident'].some((key) => key in body);
  const items = statuspageItems(data);
  if (!items || (!hasAny && items.incidents.length === 0))
    throw new ReaderError(
      context.source,
      'not a Statuspage v2 payload (no incident, incidents, scheduled_maintenances or components)',
      1,
    );
  const problems: EntryProblem[] = [];
  const components = readComponents(body.components);
  // Names from components.json in this payload count for the incidents in it, but the catalog's name wins.
  const page = rec(body.page);
  const scoped: ReaderContext = {
    ...context,
    componentNames: new Map([...components, ...context.componentNames]),
    pageUrl: pageUrlOf(page, context),
  };
  const lineAt = lineLocator(text);
  // Items appear in the text in array order, so each id is searched for after the previous one.
  let cursor = 0;
  const lineOf = (item: Record<string, unknown>) => {
    const found = text.indexOf(JSON.stringify(String(item.id)), cursor);
    if (found >= 0) cursor = found;
    return lineAt(Math.max(0, found));
  };
  const owner = str(page.name);
  const pageIds = names([str(page.id)]);
  const read = (item: Record<string, unknown>, maintenance: boolean) => {
    const draft = toDraft(item, scoped, maintenance, lineOf(item), owner);
    if ('format' in draft) draft.hints.pageIds = [...new Set([...pageIds, ...names([str(item.page_id)])])];
    return draft;
  };
  const drafts = sortOut(
    [...items.incidents.map((item) => read(item, false)), ...items.maintenances.map((item) => read(item, true))],
    problems,
  );
  let listsAllOpen = false;
  try {
    listsAllOpen = /\/incidents\/unresolved\.json$/.test(new URL(context.source).pathname);
  } catch {
    // A file path, not a URL: an imported document never claims to list every open incident.
  }
  return { drafts, ...(components.size > 0 ? { components } : {}), listsAllOpen, problems };
}

function pageUrlOf(page: Record<string, unknown>, context: ReaderContext): string | undefined {
  const url = str(page.url);
  const base = url && /^https?:\/\//i.test(url) ? url : context.pageUrl;
  return base?.replace(/\/+$/, '');
}

/** Groups are containers, not components; children keep their own name (the "<Group> - " form is only in updates). */
function readComponents(value: unknown): Map<string, string> {
  const map = new Map<string, string>();
  for (const item of arr(value)) {
    const component = rec(item);
    const id = str(component.id);
    const name = str(component.name);
    if (id && name && component.group !== true) map.set(id, name.trim());
  }
  return map;
}

/** A one-body record's list of stamped posts as updates, the last one closing it when the record is closed. */
function legacyTimeline(update: Record<string, unknown>, closed: boolean, context: ReaderContext) {
  const posts = legacyPosts(str(update.body) ?? '', machineTime(update.display_at) ?? machineTime(update.created_at));
  if (!posts) return undefined;
  const components = names(
    arr(update.affected_components).map((affected) => componentName(rec(affected).code, rec(affected).name, context)),
  );
  return posts.map((post, i) => ({
    at: post.at as string | undefined,
    status: closed && i === posts.length - 1 ? 'resolved' : 'update',
    body: post.body,
    components: i === 0 ? components : [],
  }));
}

function laterOf(a: string | undefined, b: string | undefined): string | undefined {
  if (!a || !b) return a ?? b;
  return a > b ? a : b;
}

function toDraft(
  item: Record<string, unknown>,
  context: ReaderContext,
  maintenance: boolean,
  line: number,
  owner: string | undefined,
): DraftIncident | EntryProblem {
  const status = str(item.status)?.toLowerCase() ?? '';
  const closed = isClosedStatus(status);
  const rawUpdates = arr(item.incident_updates);
  const legacy = rawUpdates.length === 1 ? legacyTimeline(rec(rawUpdates[0]), closed, context) : undefined;
  const updates = (legacy ? [] : rawUpdates).map((raw) => {
    const update = rec(raw);
    return {
      at: machineTime(update.display_at) ?? machineTime(update.created_at),
      status: str(update.status) ?? 'update',
      body: fragmentText(str(update.body) ?? ''),
      components: names(
        arr(update.affected_components).map((affected) =>
          componentName(rec(affected).code, rec(affected).name, context),
        ),
      ),
    };
  });
  if (legacy) updates.push(...legacy);
  const postmortem = str(item.postmortem_body);
  const postmortemAt = machineTime(item.postmortem_published_at) ?? machineTime(item.updated_at);
  if (postmortem && postmortemAt)
    updates.push({ at: postmortemAt, status: 'postmortem', body: fragmentText(postmortem), components: [] });
  const isMaintenance =
    maintenance ||
    str(item.impact) === 'maintenance' ||
    (item.scheduled_for !== undefined && item.scheduled_for !== null);
  const scheduledFor = machineTime(item.scheduled_for);
  const scheduledUntil = machineTime(item.scheduled_until);
  const id = str(item.id);
  const startedAt = machineTime(item.started_at);
  const createdAt = machineTime(item.created_at);
  const lastLive = updates
    .filter((update) => update.status !== 'postmortem' && update.at)
    .map((update) => update.at as string)
    .sort()
    .at(-1);
  return platformDraft(
    {
      format: 'statuspage',
      id,
      title: str(item.name),
      url: id && context.pageUrl ? `${context.pageUrl}/incidents/${encodeURIComponent(id)}` : str(item.shortlink),
      status: normalizeStatus(status, closed),
      impact: normalizeImpact(item.impact),
      kind: isMaintenance ? 'maintenance' : 'incident',
      components: names(
        arr(item.components).map((component) => componentName(rec(component).id, rec(component).name, context)),
      ),
      startedAt: (isMaintenance ? scheduledFor : undefined) ?? startedAt ?? createdAt,
      otherStarts: [createdAt, startedAt],
      resolvedAt: legacy
        ? (laterOf(machineTime(item.resolved_at), lastLive) ?? null)
        : (machineTime(item.resolved_at) ?? (closed ? (lastLive ?? machineTime(item.updated_at) ?? null) : null)),
      ...(isMaintenance && scheduledFor && scheduledUntil
        ? { scheduled: { from: scheduledFor, to: scheduledUntil } }
        : {}),
      updates,
      ...(owner ? { owner } : {}),
      line,
    },
    context,
  );
}
