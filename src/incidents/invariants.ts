// The index's time invariants — resolvedAt ≥ startedAt, impactWindow.from ≤ to, hence replay from ≤ to — and the one
// rule that turns a record contradicting itself into its most credible reading, with a note saying what was read how.
import type { Incident } from '../model.js';

type Times = Pick<Incident, 'startedAt' | 'resolvedAt' | 'updates' | 'impactWindow' | 'conflicts'>;

/** Whether the record keeps every invariant as it is. */
export function keepsInvariants(incident: Times): boolean {
  return (
    (incident.resolvedAt === null || Date.parse(incident.resolvedAt) >= Date.parse(incident.startedAt)) &&
    (incident.impactWindow === undefined ||
      Date.parse(incident.impactWindow.from) <= Date.parse(incident.impactWindow.to))
  );
}

/**
 * A resolution before the start: a record entered after the fact (its start is when someone typed it) or a misread
 * date. The earliest other start the record gives that is not after the resolution wins; with none, the resolution
 * is the suspect and becomes the last update (or the start). An impact window that ends before it begins says
 * nothing credible and is dropped. Each repair is noted in `conflicts`.
 */
export function credibleTimes<T extends Times>(incident: T, otherStarts: string[] = []): T {
  if (keepsInvariants(incident)) return incident;
  const notes: string[] = [];
  let { startedAt, resolvedAt, impactWindow } = incident;
  if (resolvedAt !== null && Date.parse(resolvedAt) < Date.parse(startedAt)) {
    const resolved = resolvedAt;
    const candidates = [
      ...otherStarts.map((at) => ({ at, what: 'another start the source gives' })),
      ...incident.updates
        .filter((update) => update.status !== 'postmortem')
        .map((update) => ({ at: update.at, what: 'its first update' })),
      ...(impactWindow ? [{ at: impactWindow.from, what: 'the stated start of impact' }] : []),
    ]
      .filter((candidate) => Date.parse(candidate.at) <= Date.parse(resolved))
      .sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
    const earlier = candidates[0];
    if (earlier) {
      notes.push(
        `the source has it resolved at ${hm(resolved)}, before it started (${hm(startedAt)}); the start is taken from ${earlier.what} (${hm(earlier.at)})`,
      );
      startedAt = earlier.at;
    } else {
      const later = incident.updates
        .map((update) => update.at)
        .filter((at) => Date.parse(at) >= Date.parse(startedAt))
        .sort((a, b) => Date.parse(a) - Date.parse(b))
        .at(-1);
      notes.push(
        `the source has it resolved at ${hm(resolved)}, before it started (${hm(startedAt)}); the resolution is taken as ${later ? `its last update (${hm(later)})` : 'the start'}`,
      );
      resolvedAt = later ?? startedAt;
    }
  }
  if (impactWindow && Date.parse(impactWindow.from) > Date.parse(impactWindow.to)) {
    notes.push(
      `the stated impact ends (${hm(impactWindow.to)}) before it begins (${hm(impactWindow.from)}); no impact window recorded`,
    );
    impactWindow = undefined;
  }
  const { impactWindow: _dropped, ...rest } = incident;
  return {
    ...rest,
    startedAt,
    resolvedAt,
    ...(impactWindow ? { impactWindow } : {}),
    conflicts: [...new Set([...(incident.conflicts ?? []), ...notes])],
  } as T;
}

function hm(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
