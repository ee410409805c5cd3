// Atlassian Statuspage public API v2 (documented on every page's /api, e.g. https://www.githubstatus.com/api):
// incidents.json, incidents/unresolved.json, scheduled-maintenances.json, components.json and summary.json.
// incident.io serves the same shapes with nulls for empty lists and no components, which this reads as well.
import { parseJsonText } from '../../json-text.js';
import type { Incident } from '../../model.js';
import {
  arr,
  collect,
  componentName,
  finishIncident,
  htmlToText,
  normalizeImpact,
  normalizeStatus,
  rec,
  str,
  toIso,
} from './common.js';
import { AdapterError, type AdapterContext, type AdapterResult } from './types.js';

const CLOSED = new Set(['resolved', 'postmortem', 'completed']);

export function parseStatuspage(text: string, context: AdapterContext): AdapterResult {
  const data = rec(parseJsonText(text, context.source));
  const hasAny = ['incidents', 'scheduled_maintenances', 'components'].some((key) => key in data);
  if (!hasAny)
    throw new AdapterError(
      `${context.source}: not a Statuspage v2 payload (no incidents, scheduled_maintenances or components)`,
    );
  const problems: string[] = [];
  const components = readComponents(data.components);
  // Names from components.json in this payload count for the incidents in it, but the catalog's name wins.
  const names = new Map([...components, ...context.componentNames]);
  const scoped: AdapterContext = { ...context, componentNames: names, pageUrl: pageUrlOf(data, context) };
  const incidents: Incident[] = [
    ...collect(
      arr(data.incidents).map((item) => toIncident(rec(item), scoped, false)),
      problems,
    ),
    ...collect(
      arr(data.scheduled_maintenances).map((item) => toIncident(rec(item), scoped, true)),
      problems,
    ),
  ];
  return {
    incidents,
    ...(components.size > 0 ? { components } : {}),
    listsAllOpen: /\/incidents\/unresolved\.json$/.test(new URL(context.source).pathname),
    problems,
  };
}

function pageUrlOf(data: Record<string, unknown>, context: AdapterContext): string {
  const url = str(rec(data.page).url);
  return url && /^https?:\/\//i.test(url) ? url.replace(/\/+$/, '') : context.pageUrl.replace(/\/+$/, '');
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

function toIncident(item: Record<string, unknown>, context: AdapterContext, maintenance: boolean): Incident | string {
  const status = str(item.status)?.toLowerCase() ?? '';
  const closed = CLOSED.has(status);
  const updates = arr(item.incident_updates).map((raw) => {
    const update = rec(raw);
    return {
      at: toIso(update.display_at) ?? toIso(update.created_at),
      status: str(update.status) ?? '',
      body: htmlToText(str(update.body) ?? ''),
      components: arr(update.affected_components)
        .map((affected) => componentName(rec(affected).code, rec(affected).name, context))
        .filter((name): name is string => name !== undefined),
    };
  });
  const isMaintenance = maintenance || str(item.impact) === 'maintenance';
  const scheduledFor = toIso(item.scheduled_for);
  const scheduledUntil = toIso(item.scheduled_until);
  const id = str(item.id);
  const result = finishIncident(
    {
      id,
      title: str(item.name),
      url: id ? `${context.pageUrl}/incidents/${encodeURIComponent(id)}` : str(item.shortlink),
      status: normalizeStatus(status, closed),
      impact: normalizeImpact(item.impact),
      kind: isMaintenance ? 'maintenance' : 'incident',
      components: arr(item.components)
        .map((component) => componentName(rec(component).id, rec(component).name, context))
        .filter((name): name is string => name !== undefined),
      startedAt: (isMaintenance ? scheduledFor : undefined) ?? toIso(item.started_at) ?? toIso(item.created_at),
      resolvedAt: toIso(item.resolved_at) ?? (closed ? (toIso(item.updated_at) ?? null) : null),
      updates,
    },
    context,
  );
  if (typeof result !== 'string' && isMaintenance && scheduledFor && scheduledUntil && scheduledUntil > scheduledFor) {
    result.impactWindow = { from: scheduledFor, to: scheduledUntil, source: 'scheduled maintenance window' };
  }
  return result;
}
