// The catalog as the pipeline uses it, and the built-in one read from its build-time copy. This module stays light
// (no YAML reader, no zod): a run on the built-in catalog never loads them; src/catalog/loader.ts reads and validates
// YAML files when there is no valid copy or the catalog has files of the repository's own.
import { PROVIDERS_DIR } from '../paths.js';
import { readCachedCatalog } from './cache.js';
import type { HelperRow, MatcherGroup, MatcherTable } from './matchers.js';
import type { Provider } from './schema.js';

export interface Catalog {
  providers: Map<string, Provider>;
  /**
   * A matcher group's rows as the build computed them (the built-in catalog's copy); without it the matcher computes
   * them from the providers (matcherTable in src/catalog/matchers.ts).
   */
  matcherTable?(group: MatcherGroup): MatcherTable;
  /** The providers' `helpers`, likewise. */
  helperRows?(): HelperRow[];
}

/**
 * The built-in catalog from the copy the build validated (every file against the schema, and the cross-checks of
 * the whole catalog), or undefined when there is no copy or a provider file changed since it was made.
 */
export function builtInCatalog(dir: string = PROVIDERS_DIR): Catalog | undefined {
  return readCachedCatalog(dir);
}

export function findComponent(provider: Provider, name: string) {
  const key = name.toLowerCase();
  return provider.components.find(
    (component) =>
      component.name.toLowerCase() === key ||
      component.aliases?.some((alias) => alias.toLowerCase() === key) ||
      component.id === name,
  );
}
