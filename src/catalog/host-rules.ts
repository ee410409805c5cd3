// One index of host patterns, used for the catalog's domains and for each kind of DNS rule (CNAME targets, name
// servers, mail exchangers, SPF includes): plain domains by exact suffix, patterns bucketed by their literal tail,
// so a host only tries the rules that could match it and the cost does not grow with the catalog.
import { hostSuffixes } from '../domains.js';

export interface HostTarget {
  provider: string;
  component?: string;
}

export interface HostHit extends HostTarget {
  /** Captured by `{region}` in the pattern. */
  region?: string;
}

interface Pattern extends HostTarget {
  /** Compiled when a host first reaches the pattern's bucket: most of the catalog's patterns never meet a host. */
  source: string;
  regex?: RegExp;
  /** How much of a host the pattern pins down: two per literal label, one more for a captured region. */
  specificity: number;
}

export interface HostRules {
  add(pattern: string, target: HostTarget): void;
  /**
   * The hits of the most specific rule, whatever its kind: `www.twingate.com` (3 literal labels) beats
   * `*.twingate.com` (2), and `*.s3.{region}.amazonaws.com` beats the provider's `amazonaws.com`.
   */
  match(host: string): HostHit[];
}

/** A pattern label: `*` alone stands for one or more labels, `*` inside a label for any run of label characters. */
function labelSource(label: string): string {
  if (label === '*') return '(?:[a-z0-9_-]+\\.)*[a-z0-9_-]+';
  return label.replace(/[-]/g, '\\-').replace(/\*/g, '[a-z0-9_-]*').replace('{region}', '(?<region>[a-z0-9-]+)');
}

export function createHostRules(): HostRules {
  const exact = new Map<string, HostTarget[]>();
  const patterns = new Map<string, Pattern[]>();
  const push = <T>(map: Map<string, T[]>, key: string, value: T) => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  // Patterns are indexed at the first match, each compiled when a host reaches it: a run whose stack has no host
  // builds no index, and one with a few hosts compiles the few patterns their suffixes lead to.
  const pending: Array<[string, HostTarget]> = [];
  const index = (pattern: string, target: HostTarget) => {
    const lower = pattern.toLowerCase();
    if (!lower.includes('*') && !lower.includes('{region}')) {
      push(exact, lower, target);
      return;
    }
    const labels = lower.split('.');
    const literal = (label: string) => !/[*{]/.test(label);
    const tail: string[] = [];
    for (let i = labels.length - 1; i >= 0 && literal(labels[i] ?? ''); i--) tail.unshift(labels[i] ?? '');
    push(patterns, tail.join('.'), {
      ...target,
      source: `^${labels.map(labelSource).join('\\.')}$`,
      specificity: labels.filter(literal).length * 2 + (lower.includes('{region}') ? 1 : 0),
    });
  };
  return {
    add(pattern, target) {
      pending.push([pattern, target]);
    },
    match(host) {
      if (pending.length > 0) for (const [pattern, target] of pending.splice(0)) index(pattern, target);
      let best = -1;
      let hits: HostHit[] = [];
      const consider = (target: HostTarget, specificity: number, region?: string) => {
        if (specificity > best) {
          best = specificity;
          hits = [];
        }
        if (specificity === best)
          hits.push({
            provider: target.provider,
            ...(target.component ? { component: target.component } : {}),
            ...(region ? { region } : {}),
          });
      };
      // '' holds patterns without a literal tail (`*.awsdns-*`), tried against every host.
      for (const suffix of [...hostSuffixes(host), '']) {
        const exactSpecificity = suffix === '' ? 0 : suffix.split('.').length * 2;
        for (const target of exact.get(suffix) ?? []) consider(target, exactSpecificity);
        for (const pattern of patterns.get(suffix) ?? []) {
          pattern.regex ??= new RegExp(pattern.source);
          const hit = pattern.regex.exec(host);
          if (hit) consider(pattern, pattern.specificity, hit.groups?.region);
        }
      }
      return hits;
    },
  };
}
