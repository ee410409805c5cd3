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
  'firehydrant',
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

/**
 * DNS host patterns follow the host-pattern rules, and may also put `*` inside a label (`ns-*.awsdns-*.org`,
 * `ns*.vercel-dns.com`) and use underscores (`_spf.google.com`).
 */
const dnsHostPattern = z.string().regex(/^(\*\.)?([a-z0-9_*-]*(\{region\})?[a-z0-9_*-]*\.)*[a-z0-9_*-]+$/i, {
  message: 'must be a host pattern like "*.ns.cloudflare.com" or "ns-*.awsdns-*.org"',
});

/**
 * What a team's own DNS says about this provider (issue 17): CNAME targets, name servers, mail exchangers, SPF
 * `include:`/`redirect=` domains, TXT prefixes (verification tokens such as `stripe-verification=`), and the service
 * labels of data/ip-ranges.json whose addresses belong to a component (`S3`, `AzureFrontDoor.Frontend`). An address in
 * a provider's published ranges that no component claims counts for the provider as a whole.
 */
const dnsMatch = z.strictObject({
  cname: z.array(dnsHostPattern).optional(),
  ns: z.array(dnsHostPattern).optional(),
  mx: z.array(dnsHostPattern).optional(),
  spf: z.array(dnsHostPattern).optional(),
  /** A literal prefix of a TXT record, matched without regard to case. */
  txt: z
    .array(z.string().regex(/^[\x21-\x7e][\x20-\x7e]{2,}$/, { message: 'must be a printable TXT prefix' }))
    .optional(),
});

/** A component may also claim addresses: service labels of data/ip-ranges.json (`*`: all of the provider's). */
const componentDnsMatch = dnsMatch.extend({ ip: z.array(z.string().min(1)).optional() });

const componentMatch = z.strictObject({
  npm: z.array(npmPattern).optional(),
  /** Terraform resource-type prefixes, e.g. `aws_s3_`, or an exact type such as `aws_lb`. */
  terraform: z.array(z.string().regex(/^[a-z0-9_]+$/)).optional(),
  domains: z.array(hostPattern).optional(),
  dns: componentDnsMatch.optional(),
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
      dns: dnsMatch.optional(),
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
export type DnsMatch = z.infer<typeof componentDnsMatch>;
export interface Provider extends ProviderFile {
  id: string;
  file: string;
}
