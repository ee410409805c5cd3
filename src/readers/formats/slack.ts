// Slack Status API v2.0.0 (https://docs.slack.dev/reference/slack-status-api):
// /current holds the active incidents, /history a bare array of past ones; ids are numbers (strings in the
// docs), times carry a local offset (-07:00), notes are HTML.
import { parseJsonText } from '../../json-text.js';
import type { IncidentImpact } from '../../model.js';
import { ReaderError, type EntryProblem, type ReaderContext, type ReaderResult } from '../types.js';
import { arr, onPage, componentName, rec, str } from '../platform.js';
import { machineTime } from '../time/machine.js';
import { fragmentText } from '../text/html.js';
import { platformDraft, sortOut } from '../draft.js';

const IMPACT: Record<string, IncidentImpact> = { outage: 'major', incident: 'minor', notice: 'none' };
const CLOSED = new Set(['resolved', 'completed', 'cancelled']);

export function parseSlack(text: string, given: ReaderContext): ReaderResult {
  const context = onPage(given, 'https://slack-status.com');
  const data = context.json ?? parseJsonText(text, context.source);
  const current = !Array.isArray(data);
  if (current && !Array.isArray(rec(data).active_incidents))
    throw new ReaderError(context.source, `not a Slack status payload (no active_incidents, not a history array)`);
  const items = current ? arr(rec(data).active_incidents) : (data as unknown[]);
  const problems: EntryProblem[] = [];
  const drafts = sortOut(
    items.map((raw) => {
      const item = rec(raw);
      const status = (str(item.status) ?? '').toLowerCase();
      const closed = CLOSED.has(status);
      const maintenance =
        status === 'scheduled' || status === 'completed' || (status === 'cancelled' && str(item.type) === 'notice');
      return platformDraft(
        {
          format: 'slack',
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
          startedAt: machineTime(item.date_created),
          resolvedAt: closed ? (machineTime(item.date_updated) ?? null) : null,
          updates: arr(item.notes).map((note) => ({
            at: machineTime(rec(note).date_created),
            status: '',
            body: fragmentText(str(rec(note).body) ?? ''),
          })),
        },
        context,
      );
    }),
    problems,
  );
  return { drafts, listsAllOpen: current, problems };
}
