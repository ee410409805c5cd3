// `.downstack.yml`: one strict schema (unknown keys are errors, so a typo never silently drops an ignore rule).
import { z } from 'zod';
import { configurableOptions } from '../settings/options.js';

/** A calendar date (the ignore holds through that whole day, UTC) or an exact UTC time. */
const EXPIRY = /^\d{4}-\d\d-\d\d(T\d\d:\d\d(:\d\d(\.\d+)?)?Z)?$/;
const expiry = z
  .string()
  .regex(EXPIRY, { message: 'must be a date like 2026-12-31 (or a UTC time like 2026-12-31T18:00Z)' })
  // Date.parse rolls 2026-02-30 over into March, so the day must survive the round trip.
  .refine(
    (value) =>
      !EXPIRY.test(value) ||
      new Date(Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value)).toISOString().slice(0, 10) ===
        value.slice(0, 10),
    {
      message: 'is not a real date',
    },
  );

export const IgnoreRuleSchema = z.strictObject({
  provider: z.string().min(1),
  /** Only this incident id; without it, every incident of the provider (or of `component`). */
  incident: z.string().min(1).optional(),
  component: z.string().min(1).optional(),
  reason: z.string().trim().min(1, { message: 'say why this is ignored, so the next reader can judge it' }),
  expires: expiry,
});

/**
 * The whole file: one key per option that declares a `config` schema (src/settings/options.ts, so a new setting
 * needs no change here), plus ignore rules and extra provider files.
 */
export const ConfigSchema = z.strictObject({
  ...Object.fromEntries(configurableOptions().map(([key, spec]) => [key, spec.config(z).optional()])),
  ignore: z.array(IgnoreRuleSchema).default([]),
  /** Extra provider files or directories (your own providers), relative to the config file. */
  providers: z.array(z.string().min(1)).default([]),
});

export type ConfigFile = z.infer<typeof ConfigSchema>;
