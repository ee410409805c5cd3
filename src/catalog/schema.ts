// One strict schema for providers/<id>.yaml: unknown keys are errors, so a typo never silently drops a matcher.
import { z } from 'zod';

export const PLATFORMS = [
  'statuspage',
  'incidentio',
  'instatus',
  'betterstack',
  'statusio',
  'gcp',
  'aws',
  'azure',
  'slack',
  'heroku',
  'rss',
  'atom',
  'custom',
] as const;

export const CATEGORIES = [
  'cloud',
  'hosting',
  'cdn',
  'database',
  'storage',
  'identity',
  'security',
  'payments',
  'messaging',
  'email',
  'communication',
  'observability',
  'analytics',
  'devtools',
  'ci',
  'ai',
  'search',
  'feature-flags',
  'cms',
  'media',
  'maps',
  'commerce',
  'productivity',
  'support',
  'other',
] as const;

const httpUrl = z
  .string()
  .url()
  .refine((value) => /^https?:\/\//i.test(value), { message: 'must be an http(s) URL' });

/** npm matchers: an exact package name, or a scope glob such as `@sentry/*`. */
const npmPattern = z
  .string()
  .regex(/^(@[a-z0-9][\w.-]*\/(\*|[\w.-]+)|[a-z0-9][\w.-]*)$/i, { message: 'must be a package name or "@scope/*"' });

/**
 * Host patterns. A plain domain matches itself and every subdomain. `*.` at the start needs at least one
 * more label; `{region}` captures one label as the region (e.g. `*.s3.{region}.amazonaws.com`).
 */
const hostPattern = z.string().regex(/^(\*\.)?([a-z0-9-]*(\{region\})?[a-z0-9-]*\.)*[a-z0-9-]+$/i, {
  message: 'must be a host pattern like "api.example.com" or "*.s3.{region}.amazonaws.com"',
});

const componentMatch = z.strictObject({
  npm: z.array(npmPattern).optional(),
  /** Terraform resource-type prefixes, e.g. `aws_s3_`, or an exact type such as `aws_lb`. */
  terraform: z.array(z.string().regex(/^[a-z0-9_]+$/)).optional(),
  domains: z.array(hostPattern).optional(),
});

export const ComponentSchema = z.strictObject({
  name: z.string().min(1),
  /** Statuspage component id (or the platform's own id): names change over time, ids do not. */
  id: z.string().min(1).optional(),
  /** Other names the status page has used for this component (renames, "<Group> - <Component>" forms). */
  aliases: z.array(z.string().min(1)).optional(),
  group: z.string().optional(),
  description: z.string().optional(),
  match: componentMatch.optional(),
});

export const StatusPageSchema = z.strictObject({
  url: httpUrl,
  platform: z.enum(PLATFORMS),
  /** Statuspage page id, status.io page id, … where the platform has one. */
  pageId: z.string().optional(),
  /** The history feed (Atom or RSS) a feed reader should subscribe to. */
  feed: httpUrl.optional(),
  /** The exact endpoints sync reads, when they differ from the platform's defaults under `url`. */
  endpoints: z.array(httpUrl).optional(),
});

export const ProviderSchema = z.strictObject({
  name: z.string().min(1),
  category: z.enum(CATEGORIES),
  homepage: httpUrl.optional(),
  /** A sub-provider (Trello under Atlassian, SendGrid under Twilio) may share matchers with its parent. */
  parent: z.string().optional(),
  status: StatusPageSchema,
  /** false when a fact in this file could not be checked against public documentation. */
  verified: z.boolean().optional(),
  notes: z.string().optional(),
  match: z
    .strictObject({
      npm: z.array(npmPattern).optional(),
      terraform: z
        .strictObject({
          /** Registry sources (`hashicorp/aws`) and legacy bare names (`aws`). */
          sources: z.array(z.string().min(1)).optional(),
          /** Resource-type prefixes owned by this provider, e.g. `aws_`. */
          resources: z.array(z.string().regex(/^[a-z0-9_]+$/)).optional(),
        })
        .optional(),
      domains: z.array(hostPattern).optional(),
    })
    .default({}),
  /** Regions this provider reports incidents by (ids as the status page uses them). */
  regions: z.array(z.string()).optional(),
  components: z.array(ComponentSchema).default([]),
  /** Upstream providers this one runs on (fourth-party exposure). */
  runsOn: z
    .array(
      z.strictObject({
        provider: z.string().min(1),
        components: z.array(z.string().min(1)).optional(),
        source: httpUrl.optional(),
      }),
    )
    .optional(),
});

export type ProviderFile = z.infer<typeof ProviderSchema>;
export type Component = z.infer<typeof ComponentSchema>;
export interface Provider extends ProviderFile {
  id: string;
  file: string;
}
