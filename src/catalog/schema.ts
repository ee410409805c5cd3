// One strict schema for providers/<id>.yaml: unknown keys are errors, so a typo never silently drops a matcher.
import { z } from 'zod';
import type { RegistryKey } from './registry-keys.js';

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
 * What a provider's `@scope/*` must not claim: a scoped package name, or a family `@scope/prefix*`. A vendor's scope
 * also holds its build tools, types and general utilities, which other libraries depend on without calling the
 * service (`@mapbox/node-pre-gyp` under canvas, `@cloudflare/workers-types` under drizzle-orm).
 */
const npmExcludePattern = z.string().regex(/^@[a-z0-9][\w.-]*\/[\w.-]+\*?$/i, {
  message: 'must be a scoped package name "@scope/name" or a family "@scope/prefix*"',
});

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

/** Helper package names: an npm name, or a prefix ending in `*` (`@aws-sdk/credential-provider*`, `@smithy/*`). */
const helperNpmPattern = z.string().regex(/^(@[a-z0-9][\w.-]*\/([\w.-]*\*|[\w.-]+)|[a-z0-9][\w.-]*\*?)$/i, {
  message: 'must be a package name, or a prefix ending in "*" such as "@aws-sdk/middleware-*"',
});

/**
 * Package names of the other registries (issue 19), as each registry spells them; a trailing `*` matches every name
 * with that prefix (`google-cloud-*`, `software.amazon.awssdk:*`). Names are compared the way each registry compares
 * them: PyPI after PEP 503 normalisation, Go without a major-version suffix (`/v76`), NuGet, Composer, Maven and
 * RubyGems without regard to case, crates with `_` as `-`.
 */
const packagePattern = (shape: RegExp, example: string) =>
  z.string().regex(shape, { message: `must be a package name such as "${example}", or a prefix ending in "*"` });
const registryMatch = {
  pypi: z.array(packagePattern(/^[A-Za-z0-9][\w.-]*\*?$/, 'google-cloud-storage')).optional(),
  /** Go module paths. */
  go: z.array(packagePattern(/^[A-Za-z0-9][\w.~-]*(\/[\w.~-]+)*(\/\*)?$/, 'github.com/stripe/stripe-go')).optional(),
  rubygems: z.array(packagePattern(/^[A-Za-z0-9][\w.-]*\*?$/, 'aws-sdk-s3')).optional(),
  /** `groupId:artifactId`, or `groupId:*` for a whole group. */
  maven: z.array(packagePattern(/^[A-Za-z0-9][\w.-]*:([\w.-]+\*?|\*)$/, 'com.stripe:stripe-java')).optional(),
  nuget: z.array(packagePattern(/^[A-Za-z0-9][\w.-]*\*?$/, 'Azure.Storage.Blobs')).optional(),
  /** `vendor/package`, or `vendor/*`. */
  composer: z.array(packagePattern(/^[A-Za-z0-9][\w.-]*\/([\w.-]+\*?|\*)$/, 'stripe/stripe-php')).optional(),
  cargo: z.array(packagePattern(/^[A-Za-z0-9][\w-]*\*?$/, 'aws-sdk-s3')).optional(),
  /** Container registry hosts of the images a stack pulls (`*.dkr.ecr.{region}.amazonaws.com`, `ghcr.io`). */
  images: z.array(hostPattern).optional(),
  /**
   * CI: GitHub Actions as `owner/repo` or `owner/*` (`aws-actions/*`), compared without regard to case, and hosted
   * runner labels as `runner:LABEL`, where LABEL may end in `*` (`runner:ubuntu-*`).
   */
  actions: z
    .array(
      z.string().regex(/^([\w.-]+\/([\w./-]+|\*)|runner:[\w.-]+\*?)$/, {
        message: 'must be an action such as "aws-actions/*" or a runner label such as "runner:ubuntu-*"',
      }),
    )
    .optional(),
};

/** The keys of `match` that hold registry package names, in the order readers list them. */
export { REGISTRY_KEYS, type RegistryKey } from './registry-keys.js';

const componentMatch = z.strictObject({
  npm: z.array(npmPattern).optional(),
  /** Terraform resource-type prefixes, e.g. `aws_s3_`, or an exact type such as `aws_lb`. */
  terraform: z.array(z.string().regex(/^[a-z0-9_]+$/)).optional(),
  domains: z.array(hostPattern).optional(),
  dns: componentDnsMatch.optional(),
  ...registryMatch,
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
      ...registryMatch,
      /** Names under this provider's `@scope/*` patterns that are not its SDKs (build tools, types, utilities). */
      npmExclude: z.array(npmExcludePattern).optional(),
    })
    .default({}),
  /**
   * An SDK's auth, signing, transport and core packages (issue 11): they say the stack talks to this provider, never
   * which components it uses, so they neither name a component nor widen the exposure to all of them. Names as in
   * `match`, a trailing `*` matching every name with that prefix (`@aws-sdk/middleware-*`, `@smithy/*`).
   */
  helpers: z
    .strictObject({
      npm: z.array(helperNpmPattern).optional(),
      pypi: registryMatch.pypi,
      go: registryMatch.go,
      rubygems: registryMatch.rubygems,
      maven: registryMatch.maven,
      nuget: registryMatch.nuget,
      composer: registryMatch.composer,
      cargo: registryMatch.cargo,
    })
    .optional(),
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
/** The registry, image and action keys a provider and a component share. */
export type OtherEcosystemMatch = Partial<Record<RegistryKey | 'images' | 'actions', string[]>>;
export interface Provider extends ProviderFile {
  id: string;
  file: string;
}
