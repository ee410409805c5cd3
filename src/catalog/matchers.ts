// The one list of what a provider file can match on. The matcher indexes it, the loader checks that a provider has
// some and that no two providers claim the same, and `providers` searches and shows it — all through matchersOf, so
// a matcher added to the schema is added here once and every one of them knows it.
import { packageKey } from './package-names.js';
import { REGISTRY_KEYS, type RegistryKey } from './registry-keys.js';
import type { OtherEcosystemMatch, Provider } from './schema.js';

/** A registry's names are claimed as the registry compares them (`Sentry_SDK` and `sentry-sdk` are one package). */
const registryClaim = (registry: RegistryKey) => (value: string) => `${registry} "${packageKey(registry, value)}"`;

/**
 * Each kind of matcher the catalog schema has, at provider or component level: its label in `providers show`, and
 * for the provider-wide ones no two unrelated providers may share, the claim the loader checks.
 */
export const MATCHER_KINDS: Record<string, { label: string; claim?: (value: string) => string }> = {
  npm: { label: 'npm', claim: (value) => `npm "${value}"` },
  'terraform-source': { label: 'terraform', claim: (value) => `terraform source "${value.toLowerCase()}"` },
  'terraform-resource': { label: 'resources' },
  domain: { label: 'domains', claim: (value) => `domain "${value.toLowerCase()}"` },
  'dns-cname': { label: 'dns cname' },
  'dns-ns': { label: 'dns ns' },
  'dns-mx': { label: 'dns mx' },
  'dns-spf': { label: 'dns spf' },
  'dns-txt': { label: 'dns txt' },
  'dns-ip': { label: 'dns ip' },
  pypi: { label: 'pypi', claim: registryClaim('pypi') },
  go: { label: 'go', claim: registryClaim('go') },
  rubygems: { label: 'rubygems', claim: registryClaim('rubygems') },
  maven: { label: 'maven', claim: registryClaim('maven') },
  nuget: { label: 'nuget', claim: registryClaim('nuget') },
  composer: { label: 'composer', claim: registryClaim('composer') },
  cargo: { label: 'cargo', claim: registryClaim('cargo') },
  image: { label: 'images' },
  action: { label: 'actions' },
} satisfies Record<MatcherKind, { label: string; claim?: (value: string) => string }>;

export type MatcherKind =
  | 'npm'
  | 'terraform-source'
  | 'terraform-resource'
  | 'domain'
  | 'dns-cname'
  | 'dns-ns'
  | 'dns-mx'
  | 'dns-spf'
  | 'dns-txt'
  | 'dns-ip'
  | RegistryKey
  /** Container registry hosts (`images`). */
  | 'image'
  /** CI actions and runner labels (`actions`). */
  | 'action';

export interface MatcherEntry {
  kind: MatcherKind;
  value: string;
  /** Set for a component's matcher: the component it narrows to. */
  component?: string;
}

type MatchBlock = NonNullable<Provider['components'][number]['match']>;

/** Every matcher of a provider, provider-wide ones first, then each component's, in file order. */
export function matchersOf(provider: Provider): MatcherEntry[] {
  const entries: MatcherEntry[] = [];
  forEachMatcher(provider, (kind, value, component) =>
    entries.push({ kind, value, ...(component ? { component } : {}) }),
  );
  return entries;
}

/** matchersOf without an object per matcher: what the matcher's indexes are built from at every start. */
export function forEachMatcher(
  provider: Provider,
  visit: (kind: MatcherKind, value: string, component: string | undefined) => void,
  /** Only these kinds (the others are not walked). */
  only?: ReadonlySet<MatcherKind>,
): void {
  const push = (kind: MatcherKind, values: readonly string[] | undefined, component?: string) => {
    if (values && (!only || only.has(kind))) for (const value of values) visit(kind, value, component);
  };
  const dns = (rules: (MatchBlock['dns'] & { ip?: string[] }) | undefined, component?: string) => {
    push('dns-cname', rules?.cname, component);
    push('dns-ns', rules?.ns, component);
    push('dns-mx', rules?.mx, component);
    push('dns-spf', rules?.spf, component);
    push('dns-txt', rules?.txt, component);
    push('dns-ip', rules?.ip, component);
  };
  const otherEcosystems = (rules: OtherEcosystemMatch | undefined, component?: string) => {
    for (const registry of REGISTRY_KEYS) push(registry, rules?.[registry], component);
    push('image', rules?.images, component);
    push('action', rules?.actions, component);
  };
  push('npm', provider.match.npm);
  push('terraform-source', provider.match.terraform?.sources);
  push('terraform-resource', provider.match.terraform?.resources);
  push('domain', provider.match.domains);
  dns(provider.match.dns);
  otherEcosystems(provider.match);
  for (const component of provider.components) {
    push('npm', component.match?.npm, component.name);
    push('terraform-resource', component.match?.terraform, component.name);
    push('domain', component.match?.domains, component.name);
    dns(component.match?.dns, component.name);
    otherEcosystems(component.match, component.name);
  }
}

/** A matcher as `providers show` writes it: resource prefixes end in `*`. */
export function matcherText(entry: MatcherEntry): string {
  return entry.kind === 'terraform-resource' ? `${entry.value}*` : entry.value;
}

/** Whether a provider's `npmExclude` keeps a name out of its scope patterns (exact, or a `@scope/prefix*` family). */
export function npmExcluded(patterns: readonly string[] | undefined, name: string): boolean {
  if (!patterns) return false;
  const key = name.toLowerCase();
  return patterns.some((pattern) => {
    const lower = pattern.toLowerCase();
    return lower.endsWith('*') ? key.startsWith(lower.slice(0, -1)) : key === lower;
  });
}

/**
 * The matcher kinds each ecosystem's matching reads: the matcher indexes a group when the first dependency of that
 * ecosystem is matched, and the catalog copy keeps each group's rows on a line of its own (src/catalog/cache.ts).
 */
export const MATCHER_GROUPS = {
  npm: ['npm'],
  terraform: ['terraform-source', 'terraform-resource'],
  domain: ['domain', 'dns-cname', 'dns-ns', 'dns-mx', 'dns-spf', 'dns-txt', 'dns-ip'],
  image: ['image'],
  action: ['action'],
  ...(Object.fromEntries(REGISTRY_KEYS.map((key) => [key, [key]])) as Record<RegistryKey, [RegistryKey]>),
} satisfies Record<string, readonly MatcherKind[]>;
export type MatcherGroup = keyof typeof MATCHER_GROUPS;
export const MATCHER_GROUP_NAMES = Object.keys(MATCHER_GROUPS) as MatcherGroup[];

/** One matcher as the matcher indexes it: kind, value, provider id and, for a component's matcher, the component. */
export type MatcherRow = [kind: MatcherKind, value: string, provider: string, component?: string];

export interface MatcherTable {
  /** Every matcher of the group's kinds, providers in catalog order, each provider's in forEachMatcher order. */
  rows: MatcherRow[];
  /** For the npm group: each provider's `npmExclude` (the names its scope patterns leave out). */
  npmExcludes?: Array<[provider: string, patterns: string[]]>;
}

/** A group's matchers across the catalog, as the matcher indexes them. */
export function matcherTable(providers: Iterable<Provider>, group: MatcherGroup): MatcherTable {
  const kinds = new Set<MatcherKind>(MATCHER_GROUPS[group]);
  const rows: MatcherRow[] = [];
  const npmExcludes: Array<[string, string[]]> = [];
  for (const provider of providers) {
    if (group === 'npm' && provider.match.npmExclude?.length)
      npmExcludes.push([provider.id, provider.match.npmExclude]);
    forEachMatcher(
      provider,
      (kind, value, component) =>
        rows.push(component === undefined ? [kind, value, provider.id] : [kind, value, provider.id, component]),
      kinds,
    );
  }
  return { rows, ...(npmExcludes.length > 0 ? { npmExcludes } : {}) };
}

/** A provider's `helpers` (the packages that are its plumbing, per registry). */
export type HelperRow = [provider: string, helpers: NonNullable<Provider['helpers']>];

/** The providers that list helpers, in catalog order. */
export function helperRows(providers: Iterable<Provider>): HelperRow[] {
  const rows: HelperRow[] = [];
  for (const provider of providers) if (provider.helpers) rows.push([provider.id, provider.helpers]);
  return rows;
}
