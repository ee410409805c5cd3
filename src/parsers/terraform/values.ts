// Resolves the few expressions a region comes from — literals, var.x, local.x, another block's region — to the
// set of values they can take. Anything else is unknown (an empty set): a region is never guessed.
import type { BodyView } from './body-view.js';
import type { Block, ModuleDir } from './module-dir.js';

export interface ProviderConfig {
  /** `aws` or `aws.eu`. */
  key: string;
  /** Empty when the region cannot be known from the configuration (environment, computed, …). */
  regions: string[];
}

export interface Scope {
  module: ModuleDir;
  root: boolean;
  /** Variables a module call passes in, already resolved in the caller; empty array = passed but unknown. */
  inputs: Map<string, string[]>;
  providers: Map<string, ProviderConfig>;
}

const MAX_DEPTH = 10;
/** A resource body names its own region with these (AWS provider v6 `region`; Google and Azure `location`, Google `zone`). */
export const REGION_ATTRIBUTES = /\b(provider|region|location|zone)\s*=/;

export function resolve(expression: unknown, scope: Scope, depth = 0): string[] {
  if (typeof expression !== 'string' || depth > MAX_DEPTH) return [];
  if (!expression.includes('${') && !expression.includes('%{')) return expression.trim() === '' ? [] : [expression];
  const reference = /^\$\{\s*([\w.-]+)\s*\}$/.exec(expression)?.[1];
  if (!reference) return [];
  const parts = reference.split('.');
  if (parts[0] === 'var' && parts.length === 2) return variableValues(parts[1] as string, scope, depth + 1);
  if (parts[0] === 'local' && parts.length === 2)
    return resolve(localValue(scope.module, parts[1] as string), scope, depth + 1);
  const data = parts[0] === 'data';
  const [type, name, attribute] = data ? parts.slice(1) : parts;
  if (parts.length !== (data ? 4 : 3) || !type || !name || !attribute) return [];
  // `data.aws_region.current.name` is the region of the provider that data source uses.
  if (attribute !== 'region' && attribute !== 'location' && !(type === 'aws_region' && attribute === 'name')) return [];
  const block = scope.module.resources.find(
    (candidate) => (candidate.type === 'data') === data && candidate.labels[0] === type && candidate.labels[1] === name,
  );
  return block ? blockRegions(block, scope, depth + 1) : [];
}

function variableValues(name: string, scope: Scope, depth: number): string[] {
  if (!scope.root) return scope.inputs.get(name) ?? defaultValue(name, scope, depth);
  // The root module: each explicit *.tfvars is one way it is applied; without one, the auto-loaded files or the default.
  const { autoVarFiles, explicitVarFiles } = scope.module;
  const setters = explicitVarFiles.filter((file) => file.values.has(name));
  const values = setters.flatMap((file) => literal(file.values.get(name)?.value));
  if (setters.length < explicitVarFiles.length || explicitVarFiles.length === 0) {
    const auto = autoVarFiles.filter((file) => file.values.has(name)).at(-1);
    values.push(...(auto ? literal(auto.values.get(name)?.value) : defaultValue(name, scope, depth)));
  }
  return [...new Set(values)];
}

function defaultValue(name: string, scope: Scope, depth: number): string[] {
  const body = scope.module.variables.get(name)?.view();
  return body?.has('default') ? resolve(body.resolvable('default'), scope, depth + 1) : [];
}

function literal(value: unknown): string[] {
  return typeof value === 'string' && !value.includes('${') && value.trim() !== '' ? [value] : [];
}

/** Only the one local is read: a module's locals blocks are long and mostly expressions that decide nothing here. */
function localValue(module: ModuleDir, name: string): unknown {
  for (const block of module.locals) {
    const body = block.view();
    if (body?.has(name)) return body.resolvable(name);
  }
  return undefined;
}

/** The regions a resource or data block lives in: its own region argument, else its provider configuration's. */
export function blockRegions(block: Block, scope: Scope, depth = 0): string[] {
  const type = block.labels[0] ?? '';
  const body = block.view();
  if (body) {
    const own = ownRegion(type, body, scope, depth);
    if (own) return own;
  }
  // A body that did not parse may have named another provider: then the region is not known.
  if (!body && block.source !== undefined && REGION_ATTRIBUTES.test(block.source)) return [];
  const provider = body?.get('provider');
  const key = typeof provider === 'string' ? providerKey(provider) : impliedProvider(type);
  return scope.providers.get(key)?.regions ?? [];
}

function ownRegion(type: string, body: BodyView, scope: Scope, depth: number): string[] | undefined {
  const provider = impliedProvider(type);
  if (body.has('region')) return normalizeRegion(provider, resolve(body.resolvable('region'), scope, depth + 1));
  if ((provider === 'google' || provider === 'azurerm' || provider === 'azapi') && body.has('location'))
    return normalizeRegion(provider, resolve(body.resolvable('location'), scope, depth + 1));
  if (provider === 'google' && body.has('zone'))
    return resolve(body.resolvable('zone'), scope, depth + 1).flatMap(zoneRegion);
  return undefined;
}

/** A provider block's configuration, its region resolved in the module that declares it. */
export function providerConfig(block: Block, scope: Scope): ProviderConfig | undefined {
  const local = block.labels[0];
  const body = block.view();
  if (!local || !body) return undefined;
  const alias = body.get('alias');
  const key = typeof alias === 'string' ? `${local}.${alias}` : local;
  let regions: string[] = [];
  if (body.has('region')) regions = resolve(body.resolvable('region'), scope);
  else if (body.has('location')) regions = resolve(body.resolvable('location'), scope);
  else if (body.has('zone')) regions = resolve(body.resolvable('zone'), scope).flatMap(zoneRegion);
  return { key, regions: normalizeRegion(local, regions) };
}

/** `${aws.eu}` (or the 0.11 form `"aws.eu"`) → `aws.eu`. */
export function providerKey(reference: string): string {
  return reference
    .replace(/^\$\{\s*/, '')
    .replace(/\s*\}$/, '')
    .trim();
}

/** Terraform picks a resource's provider by the type's first word: `aws_lb` → `aws`. */
export function impliedProvider(type: string): string {
  const underscore = type.indexOf('_');
  return underscore < 0 ? type : type.slice(0, underscore);
}

/** A Google zone id is its region plus a letter: `europe-west2-b` is in `europe-west2`. */
function zoneRegion(zone: string): string[] {
  return /^[a-z]+-[a-z]+\d+-[a-z]$/.test(zone) ? [zone.slice(0, -2)] : [];
}

/** Azure accepts display names ("West Europe"); its status page and ids use the short form (westeurope). */
function normalizeRegion(provider: string, regions: string[]): string[] {
  if (provider !== 'azurerm' && provider !== 'azapi') return regions;
  return regions.map((region) => region.toLowerCase().replace(/\s+/g, ''));
}
