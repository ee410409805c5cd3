// FireHydrant status pages (status.redis.io): `<page>/data/payload.json` holds the page's components and its
// incidents, each with `timestamps{started, detected, resolved?}`, a severity slug and a timeline of notes that open
// with the status they announce (`➡️ **Monitoring** — …`). An incident with no `resolved` time is open. Timeline
// entries carry the time they were posted (`occurredAt`) and the time they were copied onto the page (`time`, the
// same for every entry of a migrated page), so `occurredAt` is the one that counts.
import { parseJsonText } from '../../json-text.js';
import type { IncidentImpact, IncidentStatus } from '../../model.js';
import { platformDraft, sortOut } from '../draft.js';
import { arr, componentName, rec, str } from '../platform.js';
import { machineTime } from '../time/machine.js';
import { type EntryProblem, ReaderError, type ReaderContext, type ReaderResult } from '../types.js';
import { byText } from '../../text-order.js';

const SEVERITY_IMPACT: Record<string, IncidentImpact> = {
  SEV0: 'critical',
  SEV1: 'critical',
  SEV2: 'major',
  SEV3: 'minor',
  SEV4: 'minor',
  SEV5: 'none',
  MAINTENANCE: 'maintenance',
};

const NOTE_STATUS = /^\W*\*\*(investigating|identified|monitoring|resolved)\*\*\s*[—–-]?\s*/i;

/** A FireHydrant payload: its page config next to the incident list. */
export function isFireHydrantPayload(data: unknown): boolean {
  const body = rec(data);
  return (
    Array.isArray(body.incidents) && typeof body.config === 'object' && body.config !== null && 'conditions' in body
  );
}

export function parseFireHydrant(text: string, context: ReaderContext): ReaderResult {
  const data = context.json ?? parseJsonText(text, context.source);
  if (!isFireHydrantPayload(data))
    throw new ReaderError(
      context.source,
      'not a FireHydrant status page payload (no config, conditions and incidents)',
    );
  const body = rec(data);
  const components = new Map<string, string>();
  for (const raw of arr(body.components)) {
    const component = rec(raw);
    const id = str(component.id);
    const name = str(component.name);
    if (id && name) components.set(id, name);
  }
  const owner = str(rec(body.config).companyName);
  const problems: EntryProblem[] = [];
  const drafts = sortOut(
    arr(body.incidents).map((raw) => {
      const item = rec(raw);
      const times = rec(item.timestamps);
      const maintenance = str(item.severitySlug)?.toUpperCase() === 'MAINTENANCE';
      const resolvedAt = machineTime(times.resolved);
      const updates = arr(item.timeline).map((entry) => {
        const event = rec(entry);
        const note = str(rec(event.details).note) ?? '';
        const announced = NOTE_STATUS.exec(note);
        return {
          at: machineTime(event.occurredAt) ?? machineTime(event.time),
          status: announced?.[1]?.toLowerCase() ?? '',
          body: announced ? note.slice(announced[0].length) : note,
        };
      });
      // Open until `resolved` is set: the newest note says how far along it is (a "Resolved" note alone is not).
      const latest = [...updates].sort((a, b) => byText(b.at ?? '', a.at ?? ''))[0]?.status;
      const open: IncidentStatus =
        latest === 'investigating' || latest === 'identified' || latest === 'monitoring' ? latest : 'investigating';
      const status: IncidentStatus = maintenance
        ? resolvedAt
          ? 'completed'
          : 'in_progress'
        : resolvedAt
          ? 'resolved'
          : open;
      const affected = [
        ...arr(item.components).map((entry) => componentName(rec(entry).id, rec(entry).name, context)),
        ...Object.keys(rec(item.componentConditions)).map((name) => componentName(undefined, name, context)),
      ].filter((name): name is string => name !== undefined);
      return platformDraft(
        {
          format: 'firehydrant',
          id: str(item.id),
          title: str(item.title),
          status,
          impact: SEVERITY_IMPACT[str(item.severitySlug)?.toUpperCase() ?? ''] ?? 'unknown',
          kind: maintenance ? 'maintenance' : 'incident',
          components: affected,
          startedAt: machineTime(times.started) ?? machineTime(times.detected),
          resolvedAt: resolvedAt ?? null,
          updates,
          ...(owner ? { owner } : {}),
        },
        context,
      );
    }),
    problems,
  );
  return { drafts, components, problems };
}
