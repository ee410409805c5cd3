// Terraform naming rules shared by the parsers and the matcher
// (https://developer.hashicorp.com/terraform/language/providers/requirements#source-addresses).

const DEFAULT_REGISTRIES = /^(registry\.terraform\.io|registry\.opentofu\.org)\//i;

/** `registry.terraform.io/hashicorp/aws` → `hashicorp/aws`; other hosts are kept, they name another registry. */
export function providerSource(source: string): string {
  return source.trim().replace(DEFAULT_REGISTRIES, '');
}

/**
 * The names a provider source may be known by in the catalog, most specific first: the source itself, and the
 * bare type only where Terraform itself implies `hashicorp/` (a bare legacy name, or the hashicorp namespace).
 */
export function providerSourceKeys(source: string): string[] {
  const normalized = providerSource(source).toLowerCase();
  const parts = normalized.split('/');
  if (parts.length === 1) return [normalized, `hashicorp/${normalized}`];
  if (parts.length === 2 && parts[0] === 'hashicorp') return [normalized, parts[1] as string];
  return [normalized];
}

/** `terraform-aws-modules/vpc/aws` (optionally behind a registry host, with `//subdir`) is a module for `aws`. */
export function registryModuleProvider(source: string): string | undefined {
  const path = source.split('//')[0]?.split('?')[0] ?? '';
  if (path.includes('::') || path.startsWith('/') || path.startsWith('.')) return undefined;
  const parts = path.split('/');
  if (parts.length === 4 && parts[0]?.includes('.')) parts.shift();
  if (parts.length !== 3 || parts[0]?.includes('.')) return undefined;
  return parts.every((part) => /^[A-Za-z0-9][\w-]*$/.test(part)) ? (parts[2] as string).toLowerCase() : undefined;
}

/** HashiCorp's utility providers compute locally and call no service, so they never belong in the catalog. */
export const LOCAL_PROVIDERS = new Set([
  'hashicorp/random',
  'hashicorp/null',
  'hashicorp/local',
  'hashicorp/tls',
  'hashicorp/time',
  'hashicorp/archive',
  'hashicorp/external',
  'hashicorp/cloudinit',
]);
