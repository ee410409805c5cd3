// incident.io status pages (https://incident.io/status-pages): the Statuspage-compatible /api/v2/*.json, the
// native page data (`{summary:{components, ongoing_incidents, …}}` from /proxy/<host>) and the widget API
// (/api/v1/summary). Ids are ULIDs; empty lists may be null; component status has `full_outage`.
import { parseJsonText } from '../../json-text.js';
import type { IncidentImpact } from '../../model.js';
import { parseStatuspage } from './statuspage.js';
import type { EntryProblem, ReaderContext, ReaderResult } from '../types.js';
import { arr, componentName, rec, str } from '../platform.js';
import { machineTime } from '../time/machine.js';
import { platformDraft, sortOut } from '../draft.js';
import { normalizeStatus } from '../status.js';

const IMPACT: Record<string, IncidentImpact> = {
  degraded_performance: 'minor',
  partial_outage: 'major',
  full_outage: 'critical',
  under_maintenance: 'maintenance',
};
const RANK: IncidentImpact[] = ['unknown', 'none', 'maintenance', 'minor', 'major', 'critical'];

export function parseIncidentIo(text: string, context: ReaderContext): ReaderResult {
  const data = rec(context.json ?? parseJsonText(text, context.source));
  if (data.summary !== undefined) return parseNative(rec(data.summary), context);
  if (data.page_title !== undefined || data.in_progress_maintenances !== undefined) return parseWidget(data, context);
  return parseStatuspage(text, context);
}

function worst(statuses: unknown[]): IncidentImpact {
  return statuses
    .map((status) => IMPACT[str(status) ?? ''] ?? 'unknown')
    .reduce<IncidentImpact>((a, b) => (RANK.indexOf(b) > RANK.indexOf(a) ? b : a), 'unknown');
}

function parseNative(summary: Record<string, unknown>, context: ReaderContext): ReaderResult {
  const components = new Map<string, string>();
  for (const item of arr(summary.components)) {
    const id = str(rec(item).id);
    const name = str(rec(item).name);
    if (id && name) components.set(id, name);
  }
  const scoped: ReaderContext = { ...context, componentNames: new Map([...components, ...context.componentNames]) };
  const base = str(summary.public_url) ?? context.pageUrl ?? '';
  const problems: EntryProblem[] = [];
  const toIncident = (raw: unknown, maintenance: boolean) => {
    const item = rec(raw);
    const impacts = arr(item.component_impacts).map(rec);
    const affected = arr(item.affected_components).map(rec);
    const starts = [machineTime(item.published_at), ...impacts.map((impact) => machineTime(impact.start_at))]
      .filter((at): at is string => at !== undefined)
      .sort();
    const status = str(item.status) ?? '';
    const id = str(item.id);
    return platformDraft(
      {
        format: 'incidentio',
        id,
        title: str(item.name),
        url: id ? `${base.replace(/\/+$/, '')}/incidents/${encodeURIComponent(id)}` : undefined,
        status: normalizeStatus(status, status === 'resolved'),
        impact: maintenance
          ? 'maintenance'
          : worst([...affected.map((component) => component.status), ...impacts.map((impact) => impact.status)]),
        kind: maintenance ? 'maintenance' : 'incident',
        components: [
          ...affected.map((component) => component.component_id),
          ...impacts.map((impact) => impact.component_id),
        ]
          .map((componentId) => componentName(componentId, undefined, scoped))
          .filter((name): name is string => name !== undefined),
        startedAt: starts[0],
        resolvedAt: status === 'resolved' ? (machineTime(item.updated_at) ?? null) : null,
        updates: arr(item.updates).map((rawUpdate) => {
          const update = rec(rawUpdate);
          return {
            at: machineTime(update.published_at),
            status: str(update.to_status) ?? '',
            body: str(update.message_string) ?? '',
            components: arr(update.component_statuses)
              .map((component) => componentName(rec(component).component_id, undefined, scoped))
              .filter((name): name is string => name !== undefined),
          };
        }),
      },
      scoped,
    );
  };
  return {
    drafts: sortOut(
      [
        ...arr(summary.ongoing_incidents).map((item) => toIncident(item, false)),
        ...arr(summary.scheduled_maintenances).map((item) => toIncident(item, true)),
      ],
      problems,
    ),
    ...(components.size > 0 ? { components } : {}),
    listsAllOpen: true,
    problems,
  };
}

function parseWidget(data: Record<string, unknown>, context: ReaderContext): ReaderResult {
  const problems: EntryProblem[] = [];
  const toIncident = (raw: unknown, maintenance: boolean) => {
    const item = rec(raw);
    const status = (str(item.status) ?? '').replace(/^maintenance_/, '');
    const at = machineTime(item.last_update_at);
    const affected = arr(item.affected_components).map(rec);
    return platformDraft(
      {
        format: 'incidentio',
        id: str(item.id),
        title: str(item.name),
        url: str(item.url),
        status: maintenance ? (status === 'in_progress' ? 'in_progress' : 'scheduled') : normalizeStatus(status, false),
        impact: maintenance ? 'maintenance' : (IMPACT[str(item.current_worst_impact) ?? ''] ?? 'unknown'),
        kind: maintenance ? 'maintenance' : 'incident',
        components: affected
          .map((component) => componentName(component.id, component.name, context))
          .filter((name): name is string => name !== undefined),
        startedAt: machineTime(item.starts_at) ?? at,
        resolvedAt: null,
        updates: [{ at, status, body: str(item.last_update_message) ?? '' }],
      },
      context,
    );
  };
  return {
    drafts: sortOut(
      [
        ...arr(data.ongoing_incidents).map((item) => toIncident(item, false)),
        ...arr(data.in_progress_maintenances).map((item) => toIncident(item, true)),
        ...arr(data.scheduled_maintenances).map((item) => toIncident(item, true)),
      ],
      problems,
    ),
    listsAllOpen: true,
    problems,
  };
}
