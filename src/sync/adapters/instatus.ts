// Instatus public page data (https://instatus.com/help/api/public-data): <page>/v3/summary.json lists the open
// incidents and maintenances (the keys are left out when there are none), <page>/v3/components.json the
// components (an object with `components`, or a bare array with `children`); history comes from history.rss.
import { canonicalTime } from '../../incidents/schema.js';
import { parseJsonText } from '../../json-text.js';
import type { IncidentImpact } from '../../model.js';
import { arr, collect, componentName, finishIncident, rec, str, toIso } from './common.js';
import { AdapterError, type AdapterContext, type AdapterResult } from './types.js';

const IMPACT: Record<string, IncidentImpact> = {
  DEGRADEDPERFORMANCE: 'minor',
  PARTIALOUTAGE: 'major',
  MINOROUTAGE: 'minor',
  MAJOROUTAGE: 'critical',
  UNDERMAINTENANCE: 'maintenance',
};

/** Names are plain strings or localized objects (`{default: "API"}`). */
function localized(value: unknown): string | undefined {
  return str(value) ?? str(rec(value).default);
}

export function parseInstatus(text: string, context: AdapterContext): AdapterResult {
  const data = parseJsonText(text, context.source);
  const body = rec(data);
  if (Array.isArray(data) || 'components' in body)
    return {
      incidents: [],
      components: readComponents(Array.isArray(data) ? data : arr(body.components)),
      problems: [],
    };
  if (!('page' in body)) throw new AdapterError(`${context.source}: not an Instatus summary (no page)`);
  const problems: string[] = [];
  const toIncident = (raw: unknown, maintenance: boolean) => {
    const item = rec(raw);
    const started = toIso(item.started) ?? toIso(item.start);
    const status = (str(item.status) ?? '').toUpperCase();
    const url = str(item.url);
    // The public summary has no id field; the incident's URL ends in it (`…/incident/cl4a8n3070721qtmzvts760c4`).
    const idFromUrl = url ? /\/([A-Za-z0-9_-]+)\/?$/.exec(url)?.[1] : undefined;
    const minutes = Number(str(item.duration));
    const result = finishIncident(
      {
        id: str(item.id) ?? idFromUrl,
        title: localized(item.name),
        url,
        status: maintenance
          ? status === 'INPROGRESS'
            ? 'in_progress'
            : status === 'COMPLETED'
              ? 'completed'
              : 'scheduled'
          : status === 'IDENTIFIED'
            ? 'identified'
            : status === 'MONITORING'
              ? 'monitoring'
              : status === 'RESOLVED'
                ? 'resolved'
                : 'investigating',
        impact: maintenance ? 'maintenance' : (IMPACT[str(item.impact) ?? ''] ?? 'unknown'),
        kind: maintenance ? 'maintenance' : 'incident',
        components: arr(item.components)
          .map((component) => componentName(rec(component).id, localized(rec(component).name), context))
          .filter((name): name is string => name !== undefined),
        startedAt: started,
        resolvedAt:
          status === 'RESOLVED' || status === 'COMPLETED'
            ? (toIso(item.resolved) ?? toIso(item.updatedAt) ?? null)
            : null,
        updates: [{ at: toIso(item.updatedAt) ?? started, status: status.toLowerCase(), body: '' }],
      },
      context,
    );
    if (typeof result !== 'string' && maintenance && started && Number.isFinite(minutes) && minutes > 0) {
      result.impactWindow = {
        from: started,
        to: canonicalTime(new Date(Date.parse(started) + minutes * 60_000).toISOString()),
        source: 'scheduled maintenance window',
      };
    }
    return result;
  };
  return {
    incidents: collect(
      [
        ...arr(body.activeIncidents).map((item) => toIncident(item, false)),
        ...arr(body.activeMaintenances).map((item) => toIncident(item, true)),
      ],
      problems,
    ),
    listsAllOpen: true,
    problems,
  };
}

function readComponents(items: unknown[]): Map<string, string> {
  const map = new Map<string, string>();
  const visit = (raw: unknown) => {
    const item = rec(raw);
    const id = str(item.id);
    const name = localized(item.name);
    if (id && name && item.isParent !== true) map.set(id, name);
    for (const child of arr(item.children)) visit(child);
  };
  for (const item of items) visit(item);
  return map;
}
