// Instatus public page data (https://instatus.com/help/api/public-data): <page>/v3/summary.json lists the open
// incidents and maintenances (the keys are left out when there are none), <page>/v3/components.json the
// components (an object with `components`, or a bare array with `children`); history comes from history.rss.
import { canonicalTime } from '../../incidents/schema.js';
import { parseJsonText } from '../../json-text.js';
import type { IncidentImpact } from '../../model.js';
import { ReaderError, type EntryProblem, type ReaderContext, type ReaderResult } from '../types.js';
import { arr, componentName, rec, str } from '../platform.js';
import { machineTime } from '../time/machine.js';
import { platformDraft, sortOut } from '../draft.js';

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

export function parseInstatus(text: string, context: ReaderContext): ReaderResult {
  const data = context.json ?? parseJsonText(text, context.source);
  const body = rec(data);
  if (Array.isArray(data) || 'components' in body)
    return {
      drafts: [],
      components: readComponents(Array.isArray(data) ? data : arr(body.components)),
      problems: [],
    };
  if (!('page' in body)) throw new ReaderError(context.source, `not an Instatus summary (no page)`);
  const problems: EntryProblem[] = [];
  const toIncident = (raw: unknown, maintenance: boolean) => {
    const item = rec(raw);
    const started = machineTime(item.started) ?? machineTime(item.start);
    const status = (str(item.status) ?? '').toUpperCase();
    const url = str(item.url);
    // The public summary has no id field; the incident's URL ends in it (`…/incident/cl4a8n3070721qtmzvts760c4`).
    const idFromUrl = url ? /\/([A-Za-z0-9_-]+)\/?$/.exec(url)?.[1] : undefined;
    const minutes = Number(str(item.duration));
    const result = platformDraft(
      {
        format: 'instatus',
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
            ? (machineTime(item.resolved) ?? machineTime(item.updatedAt) ?? null)
            : null,
        updates: [{ at: machineTime(item.updatedAt) ?? started, status: status.toLowerCase(), body: '' }],
      },
      context,
    );
    if ('format' in result && maintenance && started && Number.isFinite(minutes) && minutes > 0)
      result.scheduled = { from: started, to: canonicalTime(Date.parse(started) + minutes * 60_000) };
    return result;
  };
  return {
    drafts: sortOut(
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
