// Better Stack status pages (https://betterstack.com/docs/uptime/status-pages/subscribing-to-status-updates/subscribing-to-api):
// <page>/index.json is JSON:API: the page in `data`, and resources, status reports and their updates in `included`.
// A report's `ends_at` stays null after it is resolved, so `aggregate_state` decides whether it is open.
import { parseJsonText } from '../../json-text.js';
import type { IncidentImpact } from '../../model.js';
import { ReaderError, type EntryProblem, type ReaderContext, type ReaderResult } from '../types.js';
import { arr, componentName, rec, str } from '../platform.js';
import { machineTime } from '../time/machine.js';
import { platformDraft, sortOut } from '../draft.js';

const IMPACT: Record<string, IncidentImpact> = { degraded: 'minor', downtime: 'major', maintenance: 'maintenance' };

export function parseBetterStack(text: string, context: ReaderContext): ReaderResult {
  const data = rec(context.json ?? parseJsonText(text, context.source));
  if (str(rec(data.data).type) !== 'status_page')
    throw new ReaderError(context.source, `not a Better Stack status page (data.type is not "status_page")`);
  const included = arr(data.included).map(rec);
  const components = new Map<string, string>();
  for (const item of included.filter((entry) => entry.type === 'status_page_resource')) {
    const id = str(item.id);
    const name = str(rec(item.attributes).public_name)?.trim();
    if (id && name) components.set(id, name);
  }
  const scoped: ReaderContext = { ...context, componentNames: new Map([...components, ...context.componentNames]) };
  const updates = new Map(
    included
      .filter((entry) => entry.type === 'status_update')
      .map((entry) => [str(entry.id) ?? '', rec(entry.attributes)]),
  );
  const resourceNames = (affected: unknown) =>
    arr(affected)
      .map((resource) => componentName(rec(resource).status_page_resource_id, undefined, scoped))
      .filter((name): name is string => name !== undefined);
  const problems: EntryProblem[] = [];
  const base = (context.pageUrl ?? '').replace(/\/+$/, '');
  const drafts = sortOut(
    included
      .filter((entry) => entry.type === 'status_report')
      .map((entry) => {
        const report = rec(entry.attributes);
        const id = str(entry.id);
        const state = str(report.aggregate_state) ?? '';
        const maintenance = str(report.report_type) === 'maintenance';
        const own = arr(rec(rec(entry.relationships).status_updates).data)
          .map((ref) => updates.get(str(rec(ref).id) ?? ''))
          .filter((update): update is Record<string, unknown> => update !== undefined);
        const resolved = state === 'resolved' || state === 'operational';
        const updateList = own.map((update) => ({
          at: machineTime(update.published_at),
          status: '',
          body: str(update.message) ?? '',
          components: resourceNames(update.affected_resources),
        }));
        const lastUpdate = updateList
          .map((update) => update.at)
          .filter((at): at is string => at !== undefined)
          .sort()
          .at(-1);
        return platformDraft(
          {
            format: 'betterstack',
            id,
            title: str(report.title),
            url: id ? `${base}/incident/${encodeURIComponent(id)}` : undefined,
            status: maintenance ? (resolved ? 'completed' : 'scheduled') : resolved ? 'resolved' : 'investigating',
            impact: maintenance ? 'maintenance' : (IMPACT[state] ?? 'unknown'),
            kind: maintenance ? 'maintenance' : 'incident',
            components: resourceNames(report.affected_resources),
            startedAt: machineTime(report.starts_at),
            resolvedAt: resolved
              ? (machineTime(report.ends_at) ?? lastUpdate ?? machineTime(report.starts_at) ?? null)
              : null,
            updates: updateList,
          },
          scoped,
        );
      }),
    problems,
  );
  return { drafts, components, problems };
}
