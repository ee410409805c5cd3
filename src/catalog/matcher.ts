// Maps dependencies to providers and components through indexes built once per catalog (exact name, scope,
// resource prefix, domain suffix, DNS rules), so matching cost does not grow with the catalog.
import { isInternalAddress, loadIpRanges, type IpRanges } from '../dns/ip-ranges.js';
import { providerSourceKeys, registryModuleProvider } from '../terraform-names.js';
import type { Dependency, DnsRecord, Ecosystem, ExposedComponent, Exposure, Reach } from '../model.js';
import { betterReach, reachOf, reachRank } from '../reach.js';
import { createHostRules, type HostRules } from './host-rules.js';
import { type Catalog, findComponent } from './catalog.js';
import { platformTarget } from '../platforms.js';
import {
  type HelperRow,
  helperRows,
  type MatcherGroup,
  type MatcherKind,
  matcherTable,
  npmExcluded,
} from './matchers.js';
import { createPackageIndex, type PackageIndex } from './package-names.js';
import { REGISTRY_KEYS, type RegistryKey } from './registry-keys.js';
import type { Provider } from './schema.js';
import { type ChainLink, chainLength, chainRoot, reachedThrough } from '../via-chain.js';
import { byName } from '../text-order.js';

interface Target {
  provider: string;
  component?: string;
  /** Captured from the dependency (a host's region label, a Terraform provider block, an address range). */
  region?: string;
}

export interface MatchHit {
  provider: string;
  component?: ExposedComponent;
  /** The region of a hit that names no component (a Google Cloud address in us-east1). */
  region?: string;
  /** One of the provider's `helpers` (auth, signing, transport, core): it names no component and does not widen. */
  helper?: boolean;
}

export interface Matcher {
  /**
   * The providers (and components, region) one dependency maps to; empty when the catalog does not know it. The
   * answer may be shared with other dependencies of the same name: read it, never change it.
   */
  match(dependency: Dependency): readonly MatchHit[];
  /**
   * Whether some dependency of this ecosystem and name can match: for packages, which are matched by name alone, the
   * answer `match` gives; for the rest (hosts with DNS answers, Terraform with regions…) always true.
   */
  canMatch(ecosystem: Ecosystem, name: string): boolean;
}

/** The ecosystems whose packages are matched by name alone (no region, no DNS answers, no file context). */
const NAME_ONLY = new Set<string>(['npm', ...REGISTRY_KEYS]);

export interface MatcherOptions {
  /** The published address ranges; read from data/ip-ranges.json the first time an address needs matching. */
  ipRanges?: () => IpRanges;
}

type HostRuleKind = 'cname' | 'ns' | 'mx' | 'spf';

export function buildMatcher(catalog: Catalog, options: MatcherOptions = {}): Matcher {
  const npmExact = new Map<string, Target[]>();
  const npmScope = new Map<string, Target[]>();
  // Per provider, the names its scope patterns leave out (a vendor's build tools, types and utilities).
  const npmExcludes = new Map<string, string[]>();
  const tfSources = new Map<string, Target[]>();
  const tfPrefixes: Array<Target & { prefix: string }> = [];
  const domains = createHostRules();
  const dnsHosts: Record<HostRuleKind, HostRules> = {
    cname: createHostRules(),
    ns: createHostRules(),
    mx: createHostRules(),
    spf: createHostRules(),
  };
  const txtPrefixes: Array<Target & { prefix: string }> = [];
  const registries = Object.fromEntries(REGISTRY_KEYS.map((key) => [key, createPackageIndex<Target>(key)])) as Record<
    RegistryKey,
    PackageIndex<Target>
  >;
  const imageRegistries = createHostRules();
  const actions = createActionIndex();
  // `${provider}\u0000${service}` of data/ip-ranges.json → the component those addresses belong to.
  const ipServices = new Map<string, Target>();
  let ipRanges: IpRanges | undefined;
  const ranges = () => (ipRanges ??= (options.ipRanges ?? (() => loadIpRanges()))());

  const add = <T>(map: Map<string, T[]>, key: string, value: T) => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  const addNpm = (pattern: string, target: Target) => {
    if (pattern.endsWith('/*')) add(npmScope, pattern.slice(0, -2), target);
    else add(npmExact, pattern, target);
  };
  // One index per kind of matcher (src/catalog/matchers.ts lists them; a new kind does not compile until added here).
  const index: Record<MatcherKind, (value: string, target: Target) => void> = {
    npm: addNpm,
    'terraform-source': (source, target) => add(tfSources, source.toLowerCase(), target),
    'terraform-resource': (prefix, target) => tfPrefixes.push({ ...target, prefix }),
    domain: (domain, target) => domains.add(domain, target),
    'dns-cname': (pattern, target) => dnsHosts.cname.add(pattern, target),
    'dns-ns': (pattern, target) => dnsHosts.ns.add(pattern, target),
    'dns-mx': (pattern, target) => dnsHosts.mx.add(pattern, target),
    'dns-spf': (pattern, target) => dnsHosts.spf.add(pattern, target),
    'dns-txt': (prefix, target) => txtPrefixes.push({ ...target, prefix: prefix.toLowerCase() }),
    'dns-ip': (service, target) => ipServices.set(`${target.provider}\u0000${service}`, target),
    pypi: (pattern, target) => registries.pypi.add(pattern, target),
    go: (pattern, target) => registries.go.add(pattern, target),
    rubygems: (pattern, target) => registries.rubygems.add(pattern, target),
    maven: (pattern, target) => registries.maven.add(pattern, target),
    nuget: (pattern, target) => registries.nuget.add(pattern, target),
    composer: (pattern, target) => registries.composer.add(pattern, target),
    cargo: (pattern, target) => registries.cargo.add(pattern, target),
    image: (pattern, target) => imageRegistries.add(pattern, target),
    action: (pattern, target) => actions.add(pattern, target),
  };
  // `helpers` per registry: which provider's plumbing a package name is.
  const helpers = createHelperIndex(catalog.helperRows?.() ?? helperRows(catalog.providers.values()));
  // Each ecosystem's indexes are built when the first dependency of that ecosystem is matched: a check of a Node app
  // never indexes the catalog's Terraform prefixes, Maven coordinates or DNS rules.
  const built = new Set<MatcherGroup>();
  const ensure = (group: MatcherGroup) => {
    if (built.has(group)) return;
    built.add(group);
    const table = catalog.matcherTable?.(group) ?? matcherTable(catalog.providers.values(), group);
    for (const [provider, patterns] of table.npmExcludes ?? []) npmExcludes.set(provider, patterns);
    // One target per provider and per component, shared by its matchers (the indexes only read them).
    const targets = new Map<string, Target>();
    for (const [kind, value, provider, component] of table.rows) {
      const key = component === undefined ? provider : `${provider}\u0000${component}`;
      let target = targets.get(key);
      if (!target) targets.set(key, (target = component === undefined ? { provider } : { provider, component }));
      index[kind](value, target);
    }
    // Longest prefix first: `aws_lb_listener` beats `aws_lb`, which beats `aws_`.
    if (group === 'terraform') tfPrefixes.sort((a, b) => b.prefix.length - a.prefix.length);
    // Longest TXT prefix first, for the same reason.
    if (group === 'domain') txtPrefixes.sort((a, b) => b.prefix.length - a.prefix.length);
  };

  const fromTargets = (targets: Target[], region?: string) =>
    targets.map((target) => ({
      provider: target.provider,
      component: target.component ? { name: target.component, ...(region ? { region } : {}) } : undefined,
    }));

  function matchNpm(name: string) {
    const exact = npmExact.get(name);
    const inScope = name.charCodeAt(0) === 64 /* @ */ ? npmScope.get(name.slice(0, name.indexOf('/'))) : undefined;
    // Most packages of a lockfile belong to no provider: answer those without building anything.
    if (!exact && !inScope) return [];
    const scope = inScope?.filter((target) => !npmExcluded(npmExcludes.get(target.provider), name));
    return narrow([...(exact ?? []), ...(scope ?? [])]);
  }

  /** A deploy manifest names its provider and component itself; a name the catalog does not have maps to nothing. */
  function matchPlatform(dependency: Dependency): MatchHit[] {
    const { provider: id, component: named } = platformTarget(dependency.name);
    const provider = catalog.providers.get(id);
    if (!provider) return [];
    const component = named === undefined ? undefined : findComponent(provider, named)?.name;
    return narrow([
      {
        provider: id,
        ...(component ? { component } : {}),
        ...(dependency.region ? { region: dependency.region } : {}),
      },
    ]);
  }

  function matchTerraform(dependency: Dependency) {
    if (dependency.ecosystem === 'terraform-resource') {
      // The most specific prefix decides; an equally long provider-level prefix only names the provider.
      const best = tfPrefixes.find((entry) => typeMatches(dependency.name, entry.prefix));
      if (!best) return [];
      const componentHit = tfPrefixes.find(
        (entry) => entry.provider === best.provider && entry.component && typeMatches(dependency.name, entry.prefix),
      );
      return fromTargets([componentHit ?? best], dependency.region);
    }
    if (dependency.ecosystem === 'terraform-module') {
      // Only a registry address names the provider a module is for; a git or local source says nothing.
      const provider = registryModuleProvider(dependency.name);
      return provider ? fromTargets(sourceHits(provider), dependency.region) : [];
    }
    return fromTargets(sourceHits(dependency.name), dependency.region);
  }

  function sourceHits(source: string): Target[] {
    for (const key of providerSourceKeys(source)) {
      const hits = tfSources.get(key);
      if (hits) return hits;
    }
    return [];
  }

  /** What the last DNS answer of a chain says: the record kinds each have their own rules. */
  function matchDns(record: DnsRecord): Target[] {
    const host = record.value.toLowerCase().replace(/\.$/, '');
    switch (record.type) {
      case 'CNAME':
      case 'ALIAS': {
        // A CNAME rule says what a target means for a team (a Vercel project, not Vercel's DNS product);
        // without one, the target is matched like any host.
        const hits = dnsHosts.cname.match(host);
        return hits.length > 0 ? hits : domains.match(host);
      }
      case 'NS':
        return dnsHosts.ns.match(host);
      case 'MX':
        return dnsHosts.mx.match(host);
      case 'SPF': {
        const domain = /^(?:include:|redirect=)(.+)$/i.exec(host)?.[1];
        return domain ? dnsHosts.spf.match(domain) : [];
      }
      case 'TXT': {
        const text = record.value.toLowerCase();
        const best = txtPrefixes.find((entry) => text.startsWith(entry.prefix));
        return best ? txtPrefixes.filter((entry) => entry.prefix === best.prefix && text.startsWith(entry.prefix)) : [];
      }
      case 'A':
      case 'AAAA': {
        if (isInternalAddress(record.value)) return [];
        const label = ranges().lookup(record.value);
        if (!label || !catalog.providers.has(label.provider)) return [];
        const component =
          ipServices.get(`${label.provider}\u0000${label.service}`) ?? ipServices.get(`${label.provider}\u0000*`);
        return [{ provider: label.provider, component: component?.component, region: label.region || undefined }];
      }
    }
  }

  function answer(dependency: Dependency): MatchHit[] {
    const hits = matchAny(dependency);
    if (hits.length === 0 || !helpers.has(dependency.ecosystem)) return hits;
    const helperOf = helpers.providersOf(dependency.ecosystem, dependency.name);
    if (helperOf.size === 0) return hits;
    // A helper says only that the stack talks to the provider, never that it uses the whole of it; a component the
    // catalog names for the helper itself (an identity library → the identity service) still counts.
    return hits.map((hit) => (helperOf.has(hit.provider) && !hit.component ? { ...hit, helper: true } : hit));
  }

  // A package's answer depends on its ecosystem and name alone, and a monorepo's lockfile lists most packages once per
  // workspace (documenso's: 14,967 dependencies of 1,760 names): each name is matched once.
  const byName = new Map<string, Map<string, MatchHit[]>>();
  const named = (dependency: Pick<Dependency, 'ecosystem' | 'name'>) => {
    let answers = byName.get(dependency.ecosystem);
    if (!answers) byName.set(dependency.ecosystem, (answers = new Map()));
    let hits = answers.get(dependency.name);
    // Only the ecosystem and the name are read for these (matchAny's npm and registry branches, helpers).
    if (!hits) answers.set(dependency.name, (hits = answer(dependency as Dependency)));
    return hits;
  };
  return {
    match: (dependency) => (NAME_ONLY.has(dependency.ecosystem) ? named(dependency) : answer(dependency)),
    canMatch: (ecosystem, name) => !NAME_ONLY.has(ecosystem) || named({ ecosystem, name }).length > 0,
  };

  function matchAny(dependency: Dependency): MatchHit[] {
    switch (dependency.ecosystem) {
      case 'npm':
        ensure('npm');
        return matchNpm(dependency.name);
      case 'domain': {
        ensure('domain');
        const last = dependency.dns?.at(-1);
        const targets = last ? matchDns(last) : domains.match(dependency.name);
        // A region the input states (fly.toml's primary_region) counts where the host name names none.
        const region = dependency.region;
        return narrow(region ? targets.map((target) => (target.region ? target : { ...target, region })) : targets);
      }
      case 'terraform-provider':
      case 'terraform-resource':
      case 'terraform-module':
        ensure('terraform');
        return matchTerraform(dependency);
      case 'pypi':
      case 'go':
      case 'rubygems':
      case 'maven':
      case 'nuget':
      case 'composer':
      case 'cargo':
        ensure(dependency.ecosystem);
        return narrow(registries[dependency.ecosystem].match(dependency.name));
      case 'container-image':
        ensure('image');
        return narrow(
          imageRegistries.match(imageRegistry(dependency.name)).map((hit) => ({
            ...hit,
            region: hit.region ?? dependency.region,
          })),
        );
      case 'ci-action':
        ensure('action');
        return narrow(actions.match(dependency.name));
      case 'platform':
        return matchPlatform(dependency);
    }
  }

  /** Component-level hits win over provider-level hits of the same provider. */
  function narrow(targets: Target[]): MatchHit[] {
    const withComponent = new Set(targets.filter((t) => t.component).map((t) => t.provider));
    const kept = targets.filter((t) => t.component || !withComponent.has(t.provider));
    const unique = new Map(kept.map((t) => [`${t.provider}\u0000${t.component ?? ''}\u0000${t.region ?? ''}`, t]));
    return [...unique.values()].map((t) =>
      t.component
        ? { provider: t.provider, component: { name: t.component, ...(t.region ? { region: t.region } : {}) } }
        : { provider: t.provider, ...(t.region ? { region: t.region } : {}) },
    );
  }
}

/** The providers whose `helpers` list a package name, per registry (npm names compared as written). */
function createHelperIndex(rows: HelperRow[]) {
  const indexes = new Map<string, PackageIndex<string>>();
  const npmExact = new Map<string, string[]>();
  const npmPrefixes: Array<{ prefix: string; provider: string }> = [];
  for (const [provider, lists] of rows) {
    for (const pattern of lists.npm ?? []) {
      if (pattern.endsWith('*')) npmPrefixes.push({ prefix: pattern.slice(0, -1), provider });
      else npmExact.set(pattern, [...(npmExact.get(pattern) ?? []), provider]);
    }
    for (const registry of REGISTRY_KEYS) {
      const patterns = lists[registry];
      if (!patterns?.length) continue;
      let index = indexes.get(registry);
      if (!index) indexes.set(registry, (index = createPackageIndex<string>(registry)));
      for (const pattern of patterns) index.add(pattern, provider);
    }
  }
  return {
    has(ecosystem: string): boolean {
      return ecosystem === 'npm' ? npmExact.size > 0 || npmPrefixes.length > 0 : indexes.has(ecosystem);
    },
    providersOf(ecosystem: string, name: string): Set<string> {
      if (ecosystem !== 'npm') return new Set(indexes.get(ecosystem)?.match(name) ?? []);
      const found = new Set(npmExact.get(name) ?? []);
      for (const { prefix, provider } of npmPrefixes) if (name.startsWith(prefix)) found.add(provider);
      return found;
    },
  };
}

/**
 * The registry host of an image reference: the first path segment when it looks like a host (`ghcr.io/…`,
 * `localhost:5000/…`), otherwise Docker Hub, where `postgres:16` and `bitnami/redis` live.
 */
export function imageRegistry(reference: string): string {
  const image = reference.replace(/^docker:\/\//i, '');
  const slash = image.indexOf('/');
  const first = slash > 0 ? image.slice(0, slash) : '';
  if (first && (first.includes('.') || first.includes(':') || first === 'localhost'))
    return first.replace(/:\d+$/, '').toLowerCase();
  return 'docker.io';
}

/**
 * GitHub Actions by `owner/repo` (a step may name a sub-path: `github/codeql-action/init@v3`) or `owner/*`, and
 * hosted runner labels (`runner:ubuntu-latest`) by exact label or `*` prefix; GitHub compares owners without case.
 */
function createActionIndex() {
  const exact = new Map<string, Target[]>();
  const prefixes: Array<Target & { prefix: string }> = [];
  return {
    add(pattern: string, target: Target) {
      const key = pattern.toLowerCase();
      if (key.endsWith('*')) prefixes.push({ ...target, prefix: key.slice(0, -1) });
      else exact.set(key, [...(exact.get(key) ?? []), target]);
    },
    match(name: string): Target[] {
      const key = name.toLowerCase().replace(/@.*$/, '');
      const repo = key.startsWith('runner:') ? key : key.split('/').slice(0, 2).join('/');
      return [...(exact.get(repo) ?? []), ...prefixes.filter((entry) => key.startsWith(entry.prefix))];
    },
  };
}

/**
 * A prefix ending in `_` matches every type that starts with it (`aws_s3_`); one ending in a word matches that
 * type and its sub-types only (`aws_route` is aws_route and aws_route_table, not aws_route53_zone).
 */
function typeMatches(type: string, prefix: string): boolean {
  return prefix.endsWith('_') ? type.startsWith(prefix) : type === prefix || type.startsWith(`${prefix}_`);
}

/** Groups matches into one exposure per provider, then adds the upstreams they run on (fourth parties). */
export function exposuresFor(
  dependencies: Dependency[],
  matcher: Matcher,
  catalog: Catalog,
  /** The repository's own packages no dependency's chain shows (the other workspaces of a root read for one folder). */
  ownPackages: readonly string[] = [],
): { exposures: Exposure[]; unmatched: Dependency[]; own: OwnProvider[] } {
  const byProvider = new Map<string, Exposure>();
  const counted = new Map<string, Set<Dependency>>();
  const unmatched: Dependency[] = [];
  // Regions of the evidence that points at a provider as a whole; `undefined` where the region is unknown.
  const wholeRegions = new Map<string, Array<string | undefined>>();
  // A Terraform provider requirement says only that the provider is used: it counts for the whole provider
  // only when no resource or module of that provider says more.
  const requirementOnly = new Map<string, Dependency[]>();
  const narrowed = new Set<string>();
  const exposureOf = (provider: string) => {
    let exposure = byProvider.get(provider);
    if (!exposure) {
      // `dev` is the worst reach: the evidence below can only improve on it.
      exposure = { provider, components: [], evidence: [], devOnly: true, reach: 'dev' };
      byProvider.set(provider, exposure);
      counted.set(provider, new Set());
    }
    return exposure;
  };
  const listedEvidence = new Map<ExposedComponent, Set<Dependency>>();
  // Each dependency's hits at the same position (no pair object per dependency: most of a lockfile matches nothing).
  const hitsOf = dependencies.map((dependency) => matcher.match(dependency));
  // Names that reached each provider: a package pulled in by another package of the same provider
  // (`@aws-sdk/core` under `@aws-sdk/client-s3`) is that SDK's plumbing, not a use of the whole provider.
  const namesByProvider = new Map<string, Set<string>>();
  // Names of each provider's helpers: a service client only a helper pulls in (`@aws-sdk/client-sts` under
  // `@aws-sdk/credential-providers`) is the helper's own machinery, not a service the stack uses.
  const helperNames = new Map<string, Set<string>>();
  for (let i = 0; i < dependencies.length; i++) {
    const dependency = dependencies[i] as Dependency;
    for (const hit of hitsOf[i] as readonly MatchHit[]) {
      const names = namesByProvider.get(hit.provider) ?? new Set<string>();
      names.add(dependency.name);
      namesByProvider.set(hit.provider, names);
      if (!hit.helper) continue;
      const helpers = helperNames.get(hit.provider) ?? new Set<string>();
      helpers.add(dependency.name);
      helperNames.set(hit.provider, helpers);
    }
  }
  const helperMemo = new Map<string, Map<ChainLink, boolean>>();
  const underHelper = (dependency: Dependency, provider: string) => {
    const names = helperNames.get(provider);
    if (!names) return false;
    let memo = helperMemo.get(provider);
    if (!memo) helperMemo.set(provider, (memo = new Map()));
    return reachedThrough(dependency, names, memo);
  };
  // Providers some evidence of which is more than a helper, and those with helper evidence.
  const used = new Set<string>();
  const helperEvidence = new Set<string>();
  // One memo per provider's names: asking for every package of a deep chain stays linear.
  const plumbingMemo = new Map<string, Map<ChainLink, boolean>>();
  const isPlumbing = (dependency: Dependency, provider: string) => {
    let memo = plumbingMemo.get(provider);
    if (!memo) plumbingMemo.set(provider, (memo = new Map()));
    return reachedThrough(dependency, namesByProvider.get(provider) ?? new Set(), memo);
  };

  for (let i = 0; i < dependencies.length; i++) {
    const dependency = dependencies[i] as Dependency;
    const hits = hitsOf[i] as readonly MatchHit[];
    if (hits.length === 0) {
      unmatched.push(dependency);
      continue;
    }
    const reach = reachOf(dependency);
    for (const hit of hits) {
      const exposure = exposureOf(hit.provider);
      exposure.reach = betterReach(exposure.reach, reach);
      if (dependency.ecosystem === 'terraform-resource' || dependency.ecosystem === 'terraform-module')
        narrowed.add(hit.provider);
      const helper = hit.helper === true || underHelper(dependency, hit.provider);
      // A helper is evidence that the stack talks to the provider, and nothing more.
      if (!helper) used.add(hit.provider);
      if (helper) helperEvidence.add(hit.provider);
      else if (hit.component)
        addComponent(exposure.components, sameRegionSpelling(hit.component), dependency, reach, listedEvidence);
      else if (dependency.ecosystem === 'terraform-provider') append(requirementOnly, hit.provider, dependency);
      // A resource type the catalog cannot narrow names one service, not all of them: it stays evidence (with its
      // region, for incidents that name no component) without exposing the stack to every component.
      else if (dependency.ecosystem !== 'terraform-resource' && !isPlumbing(dependency, hit.provider)) {
        append(wholeRegions, hit.provider, regionSpelling(hit.region ?? dependency.region));
        exposure.wholeProviderReach = betterReach(exposure.wholeProviderReach, reach);
      }
      const seen = counted.get(hit.provider) as Set<Dependency>;
      if (!seen.has(dependency)) {
        seen.add(dependency);
        exposure.evidence.push(dependency);
      }
      if (dependency.kind !== 'dev') exposure.devOnly = false;
    }
  }
  for (const [provider, requirements] of requirementOnly) {
    if (narrowed.has(provider)) continue;
    for (const _requirement of requirements) append(wholeRegions, provider, undefined);
    const exposure = byProvider.get(provider) as Exposure;
    exposure.wholeProviderReach = betterReach(exposure.wholeProviderReach, 'direct');
  }
  for (const [provider, regions] of wholeRegions) {
    const exposure = byProvider.get(provider) as Exposure;
    exposure.wholeProvider = true;
    used.add(provider);
    if (regions.every((region) => region !== undefined))
      exposure.wholeProviderRegions = [...new Set(regions as string[])].sort();
  }

  const own = ownProviders(byProvider, dependencies, ownPackages);
  const ownIds = new Set(own.map((entry) => entry.provider));
  const direct = [...byProvider.values()].filter((exposure) => !ownIds.has(exposure.provider));
  for (const exposure of direct)
    if (helperEvidence.has(exposure.provider) && !used.has(exposure.provider)) exposure.helpersOnly = true;
  const upstream: Exposure[] = [];
  for (const exposure of direct) {
    const provider = catalog.providers.get(exposure.provider) as Provider;
    for (const runsOn of provider.runsOn ?? []) {
      // What runs under a provider reaches the stack as that provider does.
      const whole = !runsOn.components?.length;
      upstream.push({
        provider: runsOn.provider,
        components: (runsOn.components ?? []).map((name) => ({ name, reach: exposure.reach })),
        evidence: exposure.evidence,
        through: exposure.provider,
        devOnly: exposure.devOnly,
        reach: exposure.reach,
        wholeProvider: whole,
        ...(whole ? { wholeProviderReach: exposure.reach } : {}),
      });
    }
  }
  for (const exposure of direct) {
    exposure.components.sort(byComponentName);
    // The evidence that explains the most comes first: the best reach, declared dependencies, the shortest chains.
    exposure.evidence.sort(
      (a, b) =>
        reachRank(reachOf(a)) - reachRank(reachOf(b)) ||
        Number(b.direct) - Number(a.direct) ||
        chainLength(a) - chainLength(b),
    );
  }
  return { exposures: [...direct, ...upstream], unmatched, own };
}

/** A provider whose own packages the repository publishes: the repository is that vendor's code, not its customer. */
export interface OwnProvider {
  provider: string;
  /** The npm scope the repository's workspace packages share with the provider's packages (`@dub`). */
  scope: string;
  /** One of the repository's own packages in that scope (`@dub/ui`). */
  workspace: string;
  /** What matched the provider, for `explain`. */
  evidence: Dependency[];
}

const scopeOf = (name: string) =>
  name.startsWith('@') && name.includes('/') ? name.slice(0, name.indexOf('/')) : undefined;

/**
 * Providers the scanned repository is the vendor of. Its own packages are the workspaces its lockfiles read (each
 * chain starts at one); when they live in an npm scope that the provider's packages use too (`@dub/ui` beside
 * `@dub/analytics`, `@langfuse/shared` beside `langfuse`), the repository is that vendor's code, and the vendor's
 * status page is its own, not a dependency's: Dub's repository calling Dub's API is not exposed to Dub.
 */
function ownProviders(
  byProvider: Map<string, Exposure>,
  dependencies: Dependency[],
  ownPackages: readonly string[],
): OwnProvider[] {
  const ownScopes = new Map<string, string>();
  const roots = new Map<ChainLink, string>();
  // The same few workspace names come with every dependency: each is looked at once.
  const seen = new Set<string>();
  const own = (name: string | undefined) => {
    if (name === undefined || seen.has(name)) return;
    seen.add(name);
    const scope = scopeOf(name);
    if (scope && !ownScopes.has(scope)) ownScopes.set(scope, name);
  };
  for (const dependency of dependencies) {
    if (dependency.ecosystem !== 'npm') continue;
    own(dependency.workspace);
    own(chainLength(dependency) > 1 ? chainRoot(dependency, roots) : undefined);
  }
  for (const name of ownPackages) own(name);
  if (ownScopes.size === 0) return [];
  const found: OwnProvider[] = [];
  for (const exposure of byProvider.values()) {
    for (const evidence of exposure.evidence) {
      if (evidence.ecosystem !== 'npm') continue;
      const scope = scopeOf(evidence.name) ?? `@${evidence.name}`;
      const workspace = ownScopes.get(scope);
      if (workspace === undefined) continue;
      found.push({ provider: exposure.provider, scope, workspace, evidence: exposure.evidence });
      break;
    }
  }
  return found;
}

/**
 * One spelling per region (`EUROPE-WEST2` from a variable and `europe-west2` from a host are one region): the cloud
 * ids are lower case, and incidents are matched against them without regard to case (src/incidents/findings.ts).
 */
function regionSpelling(region: string | undefined): string | undefined {
  return region?.trim().toLowerCase() || undefined;
}

function sameRegionSpelling(component: ExposedComponent): ExposedComponent {
  const region = regionSpelling(component.region);
  if (region === component.region) return component;
  const { region: _given, ...rest } = component;
  return region ? { ...rest, region } : rest;
}

/** `listed` remembers each component's evidence, so many packages on one component cost a lookup each, not a scan. */
function addComponent(
  list: ExposedComponent[],
  component: ExposedComponent,
  dependency: Dependency,
  reach: Reach,
  listed: Map<ExposedComponent, Set<Dependency>>,
) {
  const existing = list.find((c) => c.name === component.name && c.region === component.region);
  if (!existing) {
    const added = { ...component, reach, evidence: [dependency] };
    list.push(added);
    listed.set(added, new Set([dependency]));
    return;
  }
  const seen = listed.get(existing) ?? new Set(existing.evidence);
  listed.set(existing, seen);
  if (seen.has(dependency)) return;
  seen.add(dependency);
  existing.reach = betterReach(existing.reach, reach);
  existing.evidence?.push(dependency);
}

/** Adds to a list in a map in place (copying the list for each item made many matches cost O(n²)). */
function append<K, V>(lists: Map<K, V[]>, key: K, value: V): void {
  const list = lists.get(key);
  if (list) list.push(value);
  else lists.set(key, [value]);
}

function byComponentName(a: ExposedComponent, b: ExposedComponent) {
  return byName(a.name, b.name);
}
