// How each registry compares package names, so a catalog entry matches every spelling the registry treats as the
// same package (PyPI: https://peps.python.org/pep-0503/#normalized-names; Go: https://go.dev/ref/mod#major-version-suffixes).
import type { RegistryKey } from './schema.js';

/** The form a name is indexed and looked up under; for a pattern ending in `*`, the form of its prefix. */
export function packageKey(registry: RegistryKey, name: string): string {
  switch (registry) {
    case 'pypi':
      return name.toLowerCase().replace(/[-_.]+/g, '-');
    case 'go':
      // `github.com/stripe/stripe-go/v76` is the same SDK as `github.com/stripe/stripe-go`; `gopkg.in/yaml.v3` too.
      return name
        .toLowerCase()
        .replace(/\/v\d+$/, '')
        .replace(/^(gopkg\.in\/.+)\.v\d+$/, '$1');
    case 'cargo':
      return name.toLowerCase().replace(/_/g, '-');
    case 'rubygems':
    case 'maven':
    case 'nuget':
    case 'composer':
      return name.toLowerCase();
  }
}

/** An index of exact names and `*` prefixes for one registry; the longest matching prefix wins over shorter ones. */
export interface PackageIndex<T> {
  add(pattern: string, target: T): void;
  match(name: string): T[];
}

export function createPackageIndex<T>(registry: RegistryKey): PackageIndex<T> {
  const exact = new Map<string, T[]>();
  const prefixes: Array<{ prefix: string; target: T }> = [];
  let sorted = true;
  return {
    add(pattern, target) {
      if (pattern.endsWith('*')) {
        prefixes.push({ prefix: packageKey(registry, pattern.slice(0, -1)), target });
        sorted = false;
        return;
      }
      const key = packageKey(registry, pattern);
      const list = exact.get(key);
      if (list) list.push(target);
      else exact.set(key, [target]);
    },
    match(name) {
      const key = packageKey(registry, name);
      const hits = [...(exact.get(key) ?? [])];
      if (prefixes.length === 0) return hits;
      if (!sorted) {
        prefixes.sort((a, b) => b.prefix.length - a.prefix.length);
        sorted = true;
      }
      // Every prefix that matches counts (a provider's `google-cloud-*` and a component's `google-cloud-storage*`);
      // the matcher keeps the component-level hits of a provider.
      for (const { prefix, target } of prefixes) if (key.startsWith(prefix)) hits.push(target);
      return hits;
    },
  };
}
