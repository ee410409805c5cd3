// The shape of history/leads.json (see lead.ts), apart so that reading incidents loads zod only to check that file.
import { z } from 'zod';

const LeadFigureSchema = z.object({
  /** The lead applied: the median of (first post − stated impact start), never below zero. */
  minutes: z.number().min(0),
  /** Incidents where both an impact start and a first post were known. */
  sample: z.number().int().min(0),
  p25: z.number(),
  p75: z.number(),
  /** Which providers' history it was measured on, in words. */
  measuredOn: z.string(),
});

export const LeadTableSchema = z.object({
  schemaVersion: z.literal(1),
  /** Per catalog platform; a platform without its own figure uses `fallback`'s. */
  platforms: z.record(z.string(), LeadFigureSchema),
  fallback: z.string(),
});

export type LeadFigure = z.infer<typeof LeadFigureSchema>;
export type LeadTable = z.infer<typeof LeadTableSchema>;
