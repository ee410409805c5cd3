// status.io Public Status API (https://kb.status.io/developers/public-status-api, GET /1.0/status/<page_id>): current component
// status, the open incidents and the active/upcoming maintenance. Message `state`: 100 investigating,
// 200 identified, 300 monitoring, 400 resolved; `status` codes 300–600 grade the impact.
import { parseJsonText } from '../../json-text.js';
import type { IncidentImpact, IncidentStatus } from '../../model.js';
import { ReaderError, type EntryProblem, type ReaderContext, type ReaderResult } from '../types.js';
import { arr, componentName, rec, str } from '../platform.js';
import { machineTime } from '../time/machine.js';
import { platformDraft, sortOut } from '../draft.js';
import { byText } from '../../text-order.js';

const STATE: Record<string, IncidentStatus> = {
  '100': 'investigating',
  '200': 'identified',
  '300': 'monitoring',
  '400': 'resolved',
};
const IMPACT: Record<string, IncidentImpact> = {
  '200': 'maintenance',
  '300': 'minor',
  '400': 'major',
  '500': 'critical',
  '600': 'major',
};

export function parseStatusIo(text: string, context: ReaderContext): ReaderResult {
  const result = rec(rec(context.json ?? parseJsonText(text, context.source)).result);
  if (!Array.isArray(result.status) && !Array.isArray(result.incidents))
    throw new ReaderError(context.source, `not a status.io status payload (no result.status or result.incidents)`);
  const components = new Map<string, string>();
  for (const item of arr(result.status)) {
    const id = str(rec(item).id);
    const name = str(rec(item).name);
    if (id && name) components.set(id, name.trim());
  }
  const scoped: ReaderContext = { ...context, componentNames: new Map([...components, ...context.componentNames]) };
  // The page id ends the API URL sync read; an imported file has none, so its links stay unbuilt.
  const pageId = /^https?:\/\/[^/]+\/(?:[^?#]*\/)?([\w-]+)\/?(?:[?#]|$)/.exec(context.source)?.[1] ?? '';
  const base = (context.pageUrl ?? '').replace(/\/+$/, '');
  const toIncident = (raw: unknown, maintenance: boolean) => {
    const item = rec(raw);
    const messages = arr(item.messages).map(rec);
    const updates = messages.map((message) => ({
      at: machineTime(message.datetime),
      status: STATE[str(message.state) ?? ''] ?? '',
      body: str(message.details) ?? '',
    }));
    const last = [...updates].sort((a, b) => byText(a.at ?? '', b.at ?? '')).at(-1);
    const worst = messages.map((message) => Number(message.status) || 0).reduce((a, b) => Math.max(a, b), 0);
    const resolved = last?.status === 'resolved';
    const id = str(item._id);
    return platformDraft(
      {
        format: 'statusio',
        id,
        title: str(item.name),
        url: id && pageId ? `${base}/pages/${maintenance ? 'maintenance' : 'incident'}/${pageId}/${id}` : undefined,
        status: maintenance
          ? resolved
            ? 'completed'
            : Date.parse(str(item.datetime_planned_start) ?? '') <= Date.parse(last?.at ?? '')
              ? 'in_progress'
              : 'scheduled'
          : (last?.status as IncidentStatus | undefined) || 'investigating',
        impact: maintenance ? 'maintenance' : (IMPACT[String(worst)] ?? 'unknown'),
        kind: maintenance ? 'maintenance' : 'incident',
        components: arr(item.components_affected)
          .map((component) => componentName(rec(component)._id, rec(component).name, scoped))
          .filter((name): name is string => name !== undefined),
        startedAt:
          (maintenance ? machineTime(item.datetime_planned_start) : undefined) ?? machineTime(item.datetime_open),
        resolvedAt: resolved ? (last?.at ?? null) : null,
        updates,
      },
      scoped,
    );
  };
  const problems: EntryProblem[] = [];
  const maintenance = rec(result.maintenance);
  return {
    drafts: sortOut(
      [
        ...arr(result.incidents).map((item) => toIncident(item, false)),
        ...arr(maintenance.active).map((item) => toIncident(item, true)),
        ...arr(maintenance.upcoming).map((item) => toIncident(item, true)),
      ],
      problems,
    ),
    components,
    listsAllOpen: true,
    problems,
  };
}
