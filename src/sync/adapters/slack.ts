// Slack Status API v2.0.0 (https://docs.slack.dev/reference/slack-status-api):
// /current holds the active incidents, /history a bare array of past ones; ids are numbers (strings in the
// docs), times carry a local offset (-07:00), notes are HTML.
import { parseJsonText } from '../../json-text.js';
import type { IncidentImpact } from '../../model.js';
import { arr, collect, componentName, finishIncident, htmlToText, rec, str, toIso } from './common.js';
import { AdapterError, type AdapterContext, type AdapterResult } from './types.js';

const IMPACT: Record<string, IncidentImpact> = { outage: 'major', incident: 'minor', notice: 'none' };
const CLOSED = new Set(['resolved', 'completed', 'cancelled']);

export function parseSlack(text: string, context: AdapterContext): AdapterResult {
  const data = parseJsonText(text, context.source);
  const current = !Array.isArray(data);
  if (current && !Array.isArray(rec(data).active_incidents))
    throw new AdapterError(`${context.source}: not a Slack status payload (no active_incidents, not a history array)`);
  const items = current ? arr(rec(data).active_incidents) : (data as unknown[]);
  const problems: string[] = [];
  const incidents = collect(
    items.map((raw) => {
      const item = rec(raw);
      const status = (str(item.status) ?? '').toLowerCase();
      const closed = CLOSED.has(status);
      const maintenance =
        status === 'scheduled' || status === 'completed' || (status === 'cancelled' && str(item.type) === 'notice');
      return finishIncident(
        {
          id: str(item.id),
          title: str(item.title),
          url: str(item.url),
          status:
            status === 'scheduled'
              ? 'scheduled'
              : status === 'completed'
                ? 'completed'
                : closed
                  ? 'resolved'
                  : 'investigating',
          impact: maintenance ? 'maintenance' : (IMPACT[str(item.type) ?? ''] ?? 'unknown'),
          kind: maintenance ? 'maintenance' : 'incident',
          components: arr(item.services)
            .map((service) => componentName(service, service, context))
            .filter((name): name is string => name !== undefined),
          startedAt: toIso(item.date_created),
          resolvedAt: closed ? (toIso(item.date_updated) ?? null) : null,
          updates: arr(item.notes).map((note) => ({
            at: toIso(rec(note).date_created),
            status: '',
            body: htmlToText(str(rec(note).body) ?? ''),
          })),
        },
        context,
      );
    }),
    problems,
  );
  return { incidents, listsAllOpen: current, problems };
}
