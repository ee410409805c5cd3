// Maps dependencies to providers and components through indexes built once per catalog (exact name, scope,
// resource prefix, domain suffix), so matching cost does not grow with the catalog.
import { hostSuffixes } from '../domains.js';
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
      .map((label) => (label === '*' ? '(?:[a-z0-9-]+\\.)*[a-z0-9-]+' : label.replace(/[-]/g, '\\-').replace('{region}', '(?<region>[a-z0-9-]+)')))
      .join('\\.');
    const literalLabels = labels.filter((label) => !/[*{]/.test(label)).length;
    add(hostPatterns, literalTail.join('.'), { ...target, regex: new RegExp(`^${source}$`), specificity: literalLabels * 2 + (lower.includes('{region}') ? 1 : 0) });
  };

  for (const provider of catalog.providers.values()) {
    const id = provider.id;
    for (const pattern of provider.match.npm ?? []) addNpm(pattern, { provider: id });
    for (const source of provider.match.terraform?.sources ?? []) add(tfSources, source.toLowerCase(), { provider: id });
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
    targets.map((target) => ({ provider: target.provider, component: target.component ? { name: target.component, ...(region ? { region } : {}) } : undefined }));

  function matchNpm(name: string) {
    const exact = npmExact.get(name) ?? [];
    const scope = name.startsWith('@') ? (npmScope.get(name.slice(0, name.indexOf('/'))) ?? []) : [];
    return narrow([...exact, ...scope]);
  }

  function matchTerraform(dependency: Dependency) {
    if (dependency.ecosystem === 'terraform-resource') {
      // The most specific prefix decides; an equally long provider-level prefix only names the provider.
      const best = tfPrefixes.find((entry) => dependency.name.startsWith(entry.prefix));
      if (!best) return [];
      const componentHit = tfPrefixes.find((entry) => entry.provider === best.provider && entry.component && dependency.name.startsWith(entry.prefix));
      return fromTargets([componentHit ?? best], dependency.region);
    }
    const source = dependency.name.toLowerCase();
    const hits = tfSources.get(source) ?? tfSources.get(source.split('/').pop() ?? source) ?? [];
    return fromTargets(hits, dependency.region);
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

/** Groups matches into one exposure per provider, then adds the upstreams they run on (fourth parties). */
export function exposuresFor(dependencies: Dependency[], matcher: Matcher, catalog: Catalog): { exposures: Exposure[]; unmatched: Dependency[] } {
  const byProvider = new Map<string, Exposure>();
  const counted = new Map<string, Set<Dependency>>();
  const unmatched: Dependency[] = [];
  for (const dependency of dependencies) {
    const hits = matcher.match(dependency);
    if (hits.length === 0) {
      unmatched.push(dependency);
      continue;
    }
    for (const hit of hits) {
      let exposure = byProvider.get(hit.provider);
      if (!exposure) {
        exposure = { provider: hit.provider, components: [], evidence: [], devOnly: true };
        byProvider.set(hit.provider, exposure);
        counted.set(hit.provider, new Set());
      }
      if (hit.component) addComponent(exposure.components, hit.component);
      else exposure.wholeProvider = true;
      const seen = counted.get(hit.provider) as Set<Dependency>;
      if (!seen.has(dependency)) {
        seen.add(dependency);
        exposure.evidence.push(dependency);
      }
      if (dependency.kind !== 'dev') exposure.devOnly = false;
    }
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
  for (const exposure of direct) exposure.components.sort(byName);
  return { exposures: [...direct, ...upstream], unmatched };
}

function addComponent(list: ExposedComponent[], component: ExposedComponent) {
  if (!list.some((c) => c.name === component.name && c.region === component.region)) list.push(component);
}

function byName(a: ExposedComponent, b: ExposedComponent) {
  return a.name.localeCompare(b.name);
}
