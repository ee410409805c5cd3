// Resolves the few expressions a region comes from — literals, var.x, local.x, another block's region — to the
// set of values they can take. Anything else is unknown (an empty set): a region is never guessed.
import type { Block, Body, ModuleDir } from './module-dir.js';

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
  /** Decides whether a resource body must be parsed (false only when its header says all we need). */
  needsBody(block: Block): boolean;
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
  const body = scope.module.variables.get(name)?.body();
  return body && 'default' in body ? resolve(body.default, scope, depth + 1) : [];
}

function literal(value: unknown): string[] {
  return typeof value === 'string' && !value.includes('${') && value.trim() !== '' ? [value] : [];
}

function localValue(module: ModuleDir, name: string): unknown {
  for (const block of module.locals) {
    const body = block.body();
    if (body && name in body) return body[name];
  }
  return undefined;
}

/** The regions a resource or data block lives in: its own region argument, else its provider configuration's. */
export function blockRegions(block: Block, scope: Scope, depth = 0): string[] {
  const type = block.labels[0] ?? '';
  const needsBody = scope.needsBody(block);
  const body: Body | undefined = needsBody ? block.body() : undefined;
  if (body) {
    const own = ownRegion(type, body, scope, depth);
    if (own) return own;
  }
  // A body that did not parse may have named another provider: then the region is not known.
  if (needsBody && !body && block.source !== undefined && REGION_ATTRIBUTES.test(block.source)) return [];
  const key = body && typeof body.provider === 'string' ? providerKey(body.provider) : impliedProvider(type);
  return scope.providers.get(key)?.regions ?? [];
}

function ownRegion(type: string, body: Body, scope: Scope, depth: number): string[] | undefined {
  const provider = impliedProvider(type);
  if ('region' in body) return normalizeRegion(provider, resolve(body.region, scope, depth + 1));
  if ((provider === 'google' || provider === 'azurerm' || provider === 'azapi') && 'location' in body)
    return normalizeRegion(provider, resolve(body.location, scope, depth + 1));
  if (provider === 'google' && 'zone' in body) return resolve(body.zone, scope, depth + 1).flatMap(zoneRegion);
  return undefined;
}

/** A provider block's configuration, its region resolved in the module that declares it. */
export function providerConfig(block: Block, scope: Scope): ProviderConfig | undefined {
  const local = block.labels[0];
  const body = block.body();
  if (!local || !body) return undefined;
  const key = typeof body.alias === 'string' ? `${local}.${body.alias}` : local;
  let regions: string[] = [];
  if ('region' in body) regions = resolve(body.region, scope);
  else if ('location' in body) regions = resolve(body.location, scope);
  else if ('zone' in body) regions = resolve(body.zone, scope).flatMap(zoneRegion);
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
