// The other registries a provider may match packages of, apart from the catalog schema so that matching loads no
// zod (src/catalog/schema.ts re-exports them).
export const REGISTRY_KEYS = ['pypi', 'go', 'rubygems', 'maven', 'nuget', 'composer', 'cargo'] as const;
export type RegistryKey = (typeof REGISTRY_KEYS)[number];
