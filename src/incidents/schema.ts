// The on-disk shape of an index file (one per provider), validated on read so a damaged file is named, not trusted.
import { z } from 'zod';
import { credibleTimes } from './invariants.js';

/** Times compare as strings throughout, so every one is brought to one form: `2021-08-10T19:39:00Z`. */
export function canonicalTime(value: string | number | Date): string {
  return `${new Date(value).toISOString().slice(0, 19)}Z`;
}

const isoTime = z
  .string()
  .regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?Z$/, { message: 'must be a UTC ISO-8601 time ending in Z' })
  .refine((value) => !Number.isNaN(Date.parse(value)), { message: 'is not a real date' })
  .transform(canonicalTime);

const IncidentFields = z.object({
  provider: z.string().min(1),
  id: z.string().min(1),
  title: z.string(),
  url: z.string(),
  status: z.enum([
    'investigating',
    'identified',
    'monitoring',
    'resolved',
    'postmortem',
    'scheduled',
    'in_progress',
    'verifying',
    'completed',
  ]),
  impact: z.enum(['none', 'minor', 'major', 'critical', 'maintenance', 'unknown']),
  kind: z.enum(['incident', 'maintenance']).optional(),
  components: z.array(z.string()),
  regions: z.array(z.string()),
  startedAt: isoTime,
  resolvedAt: isoTime.nullable(),
  updates: z.array(z.object({ at: isoTime, status: z.string(), body: z.string(), components: z.array(z.string()) })),
  impactWindow: z.object({ from: isoTime, to: isoTime, source: z.string() }).optional(),
  upstream: z.array(z.string()).optional(),
  conflicts: z.array(z.string()).optional(),
  evidence: z
    .array(z.object({ kind: z.enum(['component', 'region']), value: z.string(), quote: z.string() }))
    .optional(),
  timePrecision: z.enum(['exact', 'upper-bound', 'from-text']).optional(),
  source: z.string(),
});

/**
 * Every writer (sync, import, the snapshot) and every reader of an index file goes through this: no stored incident
 * ends before it starts or has an impact window that runs backwards. Writers read the times credibly first; a record
 * that still contradicts itself (an older file, a hand edit) is repaired the same way, with a conflict note.
 */
export const IncidentSchema = IncidentFields.transform((incident) => credibleTimes(incident));

export const INDEX_SCHEMA_VERSION = 1;

export const IndexFileSchema = z.object({
  schemaVersion: z.literal(INDEX_SCHEMA_VERSION),
  provider: z.string().min(1),
  /** When sync last succeeded for this provider, and from which URLs. */
  syncedAt: isoTime.optional(),
  sources: z.array(z.string()).optional(),
  /** Conditional-GET validators per URL, so a re-sync of an unchanged page costs a 304. */
  http: z.record(z.string(), z.object({ etag: z.string().optional(), lastModified: z.string().optional() })).optional(),
  incidents: z.array(IncidentSchema),
});

export type IndexFile = z.infer<typeof IndexFileSchema>;
