// Shared helpers for adapters: time parsing across the platforms' date dialects, HTML to text, and the one
// place remote strings are cleaned and capped before they become part of an Incident.
import { canonicalTime } from '../../incidents/schema.js';
import type { Incident, IncidentImpact, IncidentStatus, IncidentUpdate } from '../../model.js';
import { cleanLine, cleanText } from '../../sanitize.js';
import type { AdapterContext } from './types.js';

export const LIMITS = {
  title: 300,
  body: 4000,
  name: 200,
  id: 200,
  url: 2048,
  updates: 200,
  components: 200,
  regions: 100,
} as const;

// RFC 822 zone names the platforms use (AWS writes PST/PDT, Azure a bare "Z").
const ZONES: Record<string, string> = {
  UT: '+0000',
  UTC: '+0000',
  GMT: '+0000',
  Z: '+0000',
  EST: '-0500',
  EDT: '-0400',
  CST: '-0600',
  CDT: '-0500',
  MST: '-0700',
  MDT: '-0600',
  PST: '-0800',
  PDT: '-0700',
};
const RFC822 =
  /^(?:[A-Za-z]{3},\s*)?(\d{1,2})\s+([A-Za-z]{3})\s+(\d{4})\s+(\d\d):(\d\d)(?::(\d\d))?\s*([A-Za-z]{1,4}|[+-]\d{4})$/;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

// JavaScript's Date#toString, which Instatus serves: `Sat Jun 11 2022 18:55:50 GMT+0000 (Coordinated Universal Time)`.
const DATE_TO_STRING =
  /^[A-Za-z]{3}\s+([A-Za-z]{3})\s+(\d{1,2})\s+(\d{4})\s+(\d\d:\d\d(?::\d\d)?)\s+GMT([+-]\d{4})(?:\s*\(.*\))?$/;

/** ISO-8601 with any offset, RFC 822 with a numeric or named zone, or Date#toString → UTC ISO; else undefined. */
export function toIso(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const dateString = DATE_TO_STRING.exec(value.trim());
  const text = dateString
    ? `${dateString[2]} ${dateString[1]} ${dateString[3]} ${dateString[4]} ${dateString[5]}`
    : value.trim();
  const rfc = RFC822.exec(text);
  if (rfc) {
    const [, day, mon, year, hh, mm, ss, zone] = rfc;
    const month = MONTHS.indexOf((mon ?? '').toLowerCase());
    const offset = zone && /^[+-]/.test(zone) ? zone : ZONES[(zone ?? '').toUpperCase()];
    if (month < 0 || !offset) return undefined;
    const sign = offset.startsWith('-') ? -1 : 1;
    const minutes = sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(3, 5)));
    const utc = Date.UTC(Number(year), month, Number(day), Number(hh), Number(mm), Number(ss ?? 0)) - minutes * 60_000;
    return canonicalTime(new Date(utc).toISOString());
  }
  // Only ISO forms with an explicit zone: a zoneless time would be read in the machine's local zone.
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/i.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : canonicalTime(new Date(ms).toISOString());
}

/** Epoch seconds or milliseconds (number or decimal string) → UTC ISO. */
export function epochToIso(value: unknown, unit: 's' | 'ms'): string | undefined {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(n) || n <= 0) return undefined;
  const date = new Date(unit === 's' ? n * 1000 : n);
  return Number.isNaN(date.getTime()) ? undefined : canonicalTime(date.toISOString());
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#')) {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Status-page HTML (update bodies, feed content) as plain text: block ends become newlines, tags go. */
export function htmlToText(html: string): string {
  const text = html
    .replace(/<\s*br\s*\/?>/gi, '\n')
    .replace(/<\/\s*(p|div|li|h\d|tr)\s*>/gi, '\n')
    .replace(/<li[^>]*>/gi, '- ')
    .replace(/<[^>]*>/g, '');
  return decodeEntities(text)
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export const str = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
export const arr = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
export const rec = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** An http(s) URL (relative ones resolved against `base`), or undefined: a `javascript:` link never gets stored. */
export function safeUrl(value: unknown, base?: string): string | undefined {
  const text = str(value)?.trim();
  if (!text) return undefined;
  try {
    const url = new URL(text, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    const href = url.href;
    return href.length > LIMITS.url ? undefined : href;
  } catch {
    return undefined; // not a URL at all: the caller falls back to the page URL
  }
}

export interface IncidentDraft {
  id: string | undefined;
  title: string | undefined;
  url?: string;
  status: IncidentStatus;
  impact: IncidentImpact;
  kind?: 'incident' | 'maintenance';
  components?: string[];
  regions?: string[];
  startedAt: string | undefined;
  resolvedAt: string | null | undefined;
  updates?: Array<{ at: string | undefined; status: string; body: string; components?: string[] }>;
}

/**
 * The single exit from an adapter: cleans and caps every remote string, drops updates without a time, orders
 * updates oldest first, and returns a problem instead of an incident when the essentials are missing.
 */
export function finishIncident(draft: IncidentDraft, context: AdapterContext): Incident | string {
  const id = draft.id ? cleanLine(draft.id, LIMITS.id) : '';
  if (!id) return `an item without an id ("${cleanLine(draft.title ?? '', 80)}") was skipped`;
  const updates: IncidentUpdate[] = (draft.updates ?? [])
    .filter((update): update is typeof update & { at: string } => typeof update.at === 'string')
    .map((update) => ({
      at: update.at,
      status: cleanLine(update.status, 40),
      body: cleanText(update.body, LIMITS.body),
      components: uniqueClean(update.components ?? [], LIMITS.name, LIMITS.components),
    }))
    .sort((a, b) => a.at.localeCompare(b.at))
    .slice(-LIMITS.updates);
  const startedAt = draft.startedAt ?? updates[0]?.at;
  if (!startedAt) return `${id}: no start time it could be placed at; skipped`;
  const resolvedAt = draft.resolvedAt ?? null;
  const components = uniqueClean(
    [...(draft.components ?? []), ...updates.flatMap((update) => update.components)],
    LIMITS.name,
    LIMITS.components,
  );
  return {
    provider: context.provider,
    id,
    title: cleanLine(draft.title ?? '', LIMITS.title) || '(untitled)',
    url: safeUrl(draft.url, context.source) ?? safeUrl(context.pageUrl) ?? '',
    status: draft.status,
    impact: draft.impact,
    kind: draft.kind ?? 'incident',
    components,
    regions: uniqueClean(draft.regions ?? [], 100, LIMITS.regions),
    startedAt,
    resolvedAt: resolvedAt !== null && resolvedAt < startedAt ? startedAt : resolvedAt,
    updates,
    source: context.source,
  };
}

function uniqueClean(values: string[], max: number, count: number): string[] {
  const seen = new Set<string>();
  for (const value of values) {
    const cleaned = cleanLine(value, max);
    if (cleaned) seen.add(cleaned);
    if (seen.size >= count) break;
  }
  return [...seen];
}

/** Collects finishIncident results into incidents and problems. */
export function collect(results: Array<Incident | string>, problems: string[]): Incident[] {
  const incidents: Incident[] = [];
  for (const result of results) {
    if (typeof result === 'string') problems.push(result);
    else incidents.push(result);
  }
  return incidents;
}

/** The component's catalog (or components.json) name when its id is known, else the payload's name. */
export function componentName(id: unknown, name: unknown, context: AdapterContext): string | undefined {
  const key = str(id);
  const known = key ? context.componentNames.get(key) : undefined;
  return known ?? str(name);
}

const STATUSES = new Set<IncidentStatus>([
  'investigating',
  'identified',
  'monitoring',
  'resolved',
  'postmortem',
  'scheduled',
  'in_progress',
  'verifying',
  'completed',
]);

/** A platform status word mapped onto ours; unknown words count as investigating while open. */
export function normalizeStatus(value: unknown, closed: boolean): IncidentStatus {
  const word = (str(value) ?? '').toLowerCase().replace(/[\s-]+/g, '_');
  if (STATUSES.has(word as IncidentStatus)) return word as IncidentStatus;
  return closed ? 'resolved' : 'investigating';
}

export function normalizeImpact(value: unknown): IncidentImpact {
  const word = (str(value) ?? '').toLowerCase();
  return word === 'none' || word === 'minor' || word === 'major' || word === 'critical' || word === 'maintenance'
    ? word
    : 'unknown';
}
