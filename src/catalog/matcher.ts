// Maps dependencies to providers and components through indexes built once per catalog (exact name, scope,
// resource prefix, domain suffix), so matching cost does not grow with the catalog.
import { hostSuffixes } from '../domains.js';
import { providerSourceKeys, registryModuleProvider } from '../terraform-names.js';
import type { Dependency, ExposedComponent, Exposure } from '../model.js';
import type { Catalog } from './loader.js';
import type { Provider } from './schema.js';

interface Target {
  provider: string;
  component?: string;
  /** Captured from the dependency (a host's region label, a Terraform provider block). */
  region?: string;
}

interface HostPattern extends Target {
  regex: RegExp;
  /** How much of a host the pattern pins down: two per literal label, one more for a captured region. */
  specificity: number;
}

export interface Matcher {
  /** The providers (and components, region) one dependency maps to; empty when the catalog does not know it. */
  match(dependency: Dependency): Array<{ provider: string; component?: ExposedComponent }>;
}

export function buildMatcher(catalog: Catalog): Matcher {
  const npmExact = new Map<string, Target[]>();
  const npmScope = new Map<string, Target[]>();
  const tfSources = new Map<string, Target[]>();
  const tfPrefixes: Array<Target & { prefix: string }> = [];
  const domains = new Map<string, Target[]>();
  // Host patterns are bucketed by their literal tail (`amazonaws.com`) so a host only tries its own bucket.
  const hostPatterns = new Map<string, HostPattern[]>();

  const add = <T>(map: Map<string, T[]>, key: string, value: T) => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  const addNpm = (pattern: string, target: Target) => {
    if (pattern.endsWith('/*')) add(npmScope, pattern.slice(0, -2), target);
    else add(npmExact, pattern, target);
  };
  const addDomain = (pattern: string, target: Target) => {
    const lower = pattern.toLowerCase();
    if (!lower.includes('*') && !lower.includes('{region}')) {
      add(domains, lower, target);
      return;
    }
    const labels = lower.split('.');
    const literalTail: string[] = [];
    for (let i = labels.length - 1; i >= 0 && !/[*{]/.test(labels[i] ?? ''); i--) literalTail.unshift(labels[i] ?? '');
    const source = lower
      .split('.')
      .map((label) =>
        label === '*'
          ? '(?:[a-z0-9-]+\\.)*[a-z0-9-]+'
          : label.replace(/[-]/g, '\\-').replace('{region}', '(?<region>[a-z0-9-]+)'),
      )
      .join('\\.');
    const literalLabels = labels.filter((label) => !/[*{]/.test(label)).length;
    add(hostPatterns, literalTail.join('.'), {
      ...target,
      regex: new RegExp(`^${source}$`),
      specificity: literalLabels * 2 + (lower.includes('{region}') ? 1 : 0),
    });
  };

  for (const provider of catalog.providers.values()) {
    const id = provider.id;
    for (const pattern of provider.match.npm ?? []) addNpm(pattern, { provider: id });
    for (const source of provider.match.terraform?.sources ?? [])
      add(tfSources, source.toLowerCase(), { provider: id });
    for (const prefix of provider.match.terraform?.resources ?? []) tfPrefixes.push({ provider: id, prefix });
    for (const domain of provider.match.domains ?? []) addDomain(domain, { provider: id });
    for (const component of provider.components) {
      const target = { provider: id, component: component.name };
      for (const pattern of component.match?.npm ?? []) addNpm(pattern, target);
      for (const prefix of component.match?.terraform ?? []) tfPrefixes.push({ ...target, prefix });
      for (const domain of component.match?.domains ?? []) addDomain(domain, target);
    }
  }
  // Longest prefix first: `aws_lb_listener` beats `aws_lb`, which beats `aws_`.
  tfPrefixes.sort((a, b) => b.prefix.length - a.prefix.length);

  const fromTargets = (targets: Target[], region?: string) =>
    targets.map((target) => ({
      provider: target.provider,
      component: target.component ? { name: target.component, ...(region ? { region } : {}) } : undefined,
    }));

  function matchNpm(name: string) {
    const exact = npmExact.get(name);
    const scope = name.charCodeAt(0) === 64 /* @ */ ? npmScope.get(name.slice(0, name.indexOf('/'))) : undefined;
    // Most packages of a lockfile belong to no provider: answer those without building anything.
    if (!exact && !scope) return [];
    return narrow([...(exact ?? []), ...(scope ?? [])]);
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

  /**
   * The most specific rule wins, whatever its kind: `www.twingate.com` (3 literal labels) beats
   * `*.twingate.com` (2), and `*.s3.{region}.amazonaws.com` beats the provider's `amazonaws.com`.
   */
  function matchHost(host: string) {
    let best = -1;
    let hits: Target[] = [];
    const consider = (target: Target, specificity: number, region?: string) => {
      if (specificity > best) {
        best = specificity;
        hits = [];
      }
      if (specificity === best) hits.push({ provider: target.provider, component: target.component, region });
    };
    for (const suffix of hostSuffixes(host)) {
      const exactSpecificity = suffix.split('.').length * 2;
      for (const target of domains.get(suffix) ?? []) consider(target, exactSpecificity);
      for (const pattern of hostPatterns.get(suffix) ?? []) {
        const hit = pattern.regex.exec(host);
        if (hit) consider(pattern, pattern.specificity, hit.groups?.region);
      }
    }
    return narrow(hits);
  }

  return {
    match(dependency) {
      switch (dependency.ecosystem) {
        case 'npm':
          return matchNpm(dependency.name);
        case 'domain':
          return matchHost(dependency.name);
        case 'terraform-provider':
        case 'terraform-resource':
        case 'terraform-module':
          return matchTerraform(dependency);
      }
    },
  };

  /** Component-level hits win over provider-level hits of the same provider. */
  function narrow(targets: Target[]) {
    const withComponent = new Set(targets.filter((t) => t.component).map((t) => t.provider));
    const kept = targets.filter((t) => t.component || !withComponent.has(t.provider));
    const unique = new Map(kept.map((t) => [`${t.provider}\u0000${t.component ?? ''}\u0000${t.region ?? ''}`, t]));
    return [...unique.values()].flatMap((t) => fromTargets([t], t.region));
  }
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
): { exposures: Exposure[]; unmatched: Dependency[] } {
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
      exposure = { provider, components: [], evidence: [], devOnly: true };
      byProvider.set(provider, exposure);
      counted.set(provider, new Set());
    }
    return exposure;
  };
  const matched = dependencies.map((dependency) => ({ dependency, hits: matcher.match(dependency) }));
  // Names that reached each provider: a package pulled in by another package of the same provider
  // (`@aws-sdk/core` under `@aws-sdk/client-s3`) is that SDK's plumbing, not a use of the whole provider.
  const namesByProvider = new Map<string, Set<string>>();
  for (const { dependency, hits } of matched) {
    for (const hit of hits) {
      const names = namesByProvider.get(hit.provider) ?? new Set<string>();
      names.add(dependency.name);
      namesByProvider.set(hit.provider, names);
    }
  }
  const isPlumbing = (dependency: Dependency, provider: string) =>
    dependency.via.slice(0, -1).some((name) => namesByProvider.get(provider)?.has(name));

  for (const { dependency, hits } of matched) {
    if (hits.length === 0) {
      unmatched.push(dependency);
      continue;
    }
    for (const hit of hits) {
      const exposure = exposureOf(hit.provider);
      if (dependency.ecosystem === 'terraform-resource' || dependency.ecosystem === 'terraform-module')
        narrowed.add(hit.provider);
      if (hit.component) addComponent(exposure.components, hit.component, dependency);
      else if (dependency.ecosystem === 'terraform-provider')
        requirementOnly.set(hit.provider, [...(requirementOnly.get(hit.provider) ?? []), dependency]);
      // A resource type the catalog cannot narrow names one service, not all of them: it stays evidence (with its
      // region, for incidents that name no component) without exposing the stack to every component.
      else if (dependency.ecosystem !== 'terraform-resource' && !isPlumbing(dependency, hit.provider))
        wholeRegions.set(hit.provider, [...(wholeRegions.get(hit.provider) ?? []), dependency.region]);
      const seen = counted.get(hit.provider) as Set<Dependency>;
      if (!seen.has(dependency)) {
        seen.add(dependency);
        exposure.evidence.push(dependency);
      }
      if (dependency.kind !== 'dev') exposure.devOnly = false;
    }
  }
  for (const [provider, requirements] of requirementOnly) {
    if (!narrowed.has(provider))
      wholeRegions.set(provider, [...(wholeRegions.get(provider) ?? []), ...requirements.map(() => undefined)]);
  }
  for (const [provider, regions] of wholeRegions) {
    const exposure = byProvider.get(provider) as Exposure;
    exposure.wholeProvider = true;
    if (regions.every((region) => region !== undefined))
      exposure.wholeProviderRegions = [...new Set(regions as string[])].sort();
  }

  const direct = [...byProvider.values()];
  const upstream: Exposure[] = [];
  for (const exposure of direct) {
    const provider = catalog.providers.get(exposure.provider) as Provider;
    for (const runsOn of provider.runsOn ?? []) {
      upstream.push({
        provider: runsOn.provider,
        components: (runsOn.components ?? []).map((name) => ({ name })),
        evidence: exposure.evidence,
        through: exposure.provider,
        devOnly: exposure.devOnly,
        wholeProvider: !runsOn.components?.length,
      });
    }
  }
  for (const exposure of direct) {
    exposure.components.sort(byName);
    // The evidence that explains the most comes first: declared dependencies, then the shortest chains.
    exposure.evidence.sort((a, b) => Number(b.direct) - Number(a.direct) || a.via.length - b.via.length);
  }
  return { exposures: [...direct, ...upstream], unmatched };
}

function addComponent(list: ExposedComponent[], component: ExposedComponent, dependency: Dependency) {
  const existing = list.find((c) => c.name === component.name && c.region === component.region);
  if (!existing) list.push({ ...component, evidence: [dependency] });
  else if (!existing.evidence?.includes(dependency)) existing.evidence?.push(dependency);
}

function byName(a: ExposedComponent, b: ExposedComponent) {
  return a.name.localeCompare(b.name);
}
