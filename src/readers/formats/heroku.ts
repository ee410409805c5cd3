// Heroku status API v4 (https://devcenter.heroku.com/articles/heroku-status):
// /api/v4/current-status has `incidents` and `scheduled` (maintenance; "blue" is maintenance), /api/v4/incidents
// the history as a bare array of the same items. `resolved` is unreliable, so `state` and `resolved_at` decide.
// The EMEA/NA/APAC tags are not region ids the catalog could match, so they are not kept as regions.
import { parseJsonText } from '../../json-text.js';
import type { IncidentImpact } from '../../model.js';
import { ReaderError, type EntryProblem, type ReaderContext, type ReaderResult } from '../types.js';
import { arr, onPage, componentName, rec, str } from '../platform.js';
import { machineTime } from '../time/machine.js';
import { platformDraft, sortOut } from '../draft.js';
import { byText } from '../../text-order.js';

const COLOR_IMPACT: Record<string, IncidentImpact> = {
  green: 'none',
  yellow: 'minor',
  red: 'major',
  blue: 'maintenance',
};
const RANK: IncidentImpact[] = ['unknown', 'none', 'maintenance', 'minor', 'major', 'critical'];

export function parseHeroku(text: string, given: ReaderContext): ReaderResult {
  const context = onPage(given, 'https://status.heroku.com');
  const data = context.json ?? parseJsonText(text, context.source);
  const current = !Array.isArray(data);
  const body = rec(data);
  if (current && !Array.isArray(body.incidents) && !Array.isArray(body.scheduled))
    throw new ReaderError(context.source, `not a Heroku status payload (no incidents or scheduled)`);
  const problems: EntryProblem[] = [];
  const toIncident = (raw: unknown, scheduled: boolean) => {
    const item = rec(raw);
    const updates = arr(item.updates).map(rec);
    const state = (str(item.state) ?? '').toLowerCase();
    const lastType =
      str([...updates].sort((a, b) => byText(str(a.created_at) ?? '', str(b.created_at) ?? '')).at(-1)?.update_type) ??
      '';
    const resolvedAt =
      machineTime(item.resolved_at) ??
      (state === 'resolved' || lastType === 'resolved' ? machineTime(item.updated_at) : undefined);
    const maintenance =
      scheduled ||
      updates.some((update) => update.update_type === 'maintenance' || update.update_type === 'scheduled') ||
      item.status_prod === 'blue';
    const colors = [
      item.status_prod,
      item.status_dev,
      ...updates.flatMap((update) => [update.status_prod, update.status_dev]),
    ].map((color) => COLOR_IMPACT[str(color) ?? ''] ?? 'unknown');
    const systems = arr(item.systems).map((system) => str(rec(system).name));
    return platformDraft(
      {
        format: 'heroku',
        id: str(item.id),
        title: str(item.title),
        url: str(item.full_url),
        status: maintenance
          ? resolvedAt
            ? 'completed'
            : state === 'upcoming' || item.upcoming === true
              ? 'scheduled'
              : 'in_progress'
          : resolvedAt
            ? 'resolved'
            : 'investigating',
        impact: maintenance
          ? 'maintenance'
          : colors
              .filter((impact) => impact !== 'maintenance')
              .reduce<IncidentImpact>((a, b) => (RANK.indexOf(b) > RANK.indexOf(a) ? b : a), 'unknown'),
        kind: maintenance ? 'maintenance' : 'incident',
        components: systems
          .map((name) => componentName(name, name, context))
          .filter((name): name is string => name !== undefined),
        startedAt: machineTime(item.created_at),
        resolvedAt: resolvedAt ?? null,
        updates: updates.map((update) => ({
          at: machineTime(update.created_at),
          status: str(update.update_type) ?? '',
          body: str(update.contents) ?? '',
        })),
      },
      context,
    );
  };
  const drafts = current
    ? sortOut(
        [
          ...arr(body.incidents).map((item) => toIncident(item, false)),
          ...arr(body.scheduled).map((item) => toIncident(item, true)),
        ],
        problems,
      )
    : sortOut(
        (data as unknown[]).map((item) => toIncident(item, false)),
        problems,
      );
  return { drafts, listsAllOpen: current, problems };
}
