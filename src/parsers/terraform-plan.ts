// `terraform show -json` output for a plan or a state (https://developer.hashicorp.com/terraform/internals/json-format):
// what is (or will be) deployed, with each resource's provider and, where the values say so, its region. Module
// calls are not listed on their own: a plan expands every module, registry ones included, into its resources.
import { ParseError } from '../errors.js';
import { isRecord, parseJsonText } from '../json-text.js';
import type { Dependency, InputProblem } from '../model.js';
import { providerSource } from '../terraform-names.js';
import { fullView } from './terraform/body-view.js';
import {
  dnsRecordsOf,
  isDnsRecordResource,
  literalReader,
  ZONE_TYPES,
  zoneResourceName,
} from './terraform/dns-records.js';
import { basename, type Parser, type ParseResult } from './types.js';

type Json = Record<string, unknown>;

/** Deeper module nesting than any real configuration (the configuration reader stops at the same depth). */
const MAX_MODULE_DEPTH = 64;

interface PlanResource {
  address: string;
  moduleAddress?: string;
  type: string;
  provider?: string;
  values?: Json;
}

export function parseTerraformPlan(text: string, path: string): ParseResult {
  const document = parseJsonText(text, path);
  if (!isRecord(document) || typeof document.format_version !== 'string') {
    throw new ParseError(path, 1, 'not `terraform show -json` output (no "format_version")');
  }
  const configuration = isRecord(document.configuration) ? document.configuration : {};
  const variables = isRecord(document.variables) ? document.variables : {};
  const providerRegions = providerConfigRegions(configuration, variables);
  const errors: InputProblem[] = [];
  const tooDeep = (what: string) =>
    errors.push({
      file: path,
      message: `${what} nest modules more than ${MAX_MODULE_DEPTH} deep; the deeper ones are not read`,
    });
  const configKeys = collectConfigKeys(configuration.root_module, () => tooDeep("the configuration's module calls"));

  const resources = planResources(document, () => tooDeep('the planned values'));
  const dependencies: Dependency[] = [];
  const seen = new Set<string>();
  const providers = new Set<string>();
  for (const resource of resources) {
    const moduleAddress = resource.moduleAddress ?? '';
    // Instances of one count/for_each resource are one dependency: strip the instance keys from the address.
    const address = resource.address.replace(/\[[^\]]*\]/g, '');
    const region =
      valueRegion(resource.type, resource.values) ??
      configRegion(configKeys.get(address), moduleAddress, providerRegions);
    const key = `${address}\u0000${region ?? ''}`;
    if (resource.provider) providers.add(resource.provider);
    if (seen.has(key)) continue;
    seen.add(key);
    const modules = moduleAddress === '' ? [] : moduleAddress.replace(/\[[^\]]*\]/g, '').split(/\.(?=module\.)/);
    dependencies.push({
      ecosystem: 'terraform-resource',
      name: resource.type,
      ...(region ? { region } : {}),
      file: path,
      direct: modules.length === 0,
      via: [path, ...modules, address.slice(moduleAddress.replace(/\[[^\]]*\]/g, '').length).replace(/^\./, '')],
    });
  }
  dependencies.push(...dnsDependencies(resources, path));
  for (const entry of Object.values(isRecord(configuration.provider_config) ? configuration.provider_config : {})) {
    if (isRecord(entry) && typeof entry.full_name === 'string') providers.add(entry.full_name);
  }
  for (const provider of [...providers].sort()) {
    const name = providerSource(provider);
    dependencies.push({ ecosystem: 'terraform-provider', name, file: path, direct: true, via: [path, name] });
  }
  if (dependencies.length === 0) throw new ParseError(path, 1, 'the plan or state lists no resources and no providers');
  return { dependencies, errors };
}

/** Every instance of a DNS record resource holds its own records; zones are the team's own domains. */
function dnsDependencies(resources: PlanResource[], path: string): Dependency[] {
  const out: Dependency[] = [];
  for (const resource of resources) {
    if (!resource.values) continue;
    const base = { ecosystem: 'domain' as const, file: path, direct: !resource.moduleAddress };
    if (ZONE_TYPES.has(resource.type)) {
      const zone = zoneResourceName(resource.type, fullView(resource.values), literalReader);
      if (zone) out.push({ ...base, name: zone, via: [path, resource.address, zone] });
    } else if (isDnsRecordResource(resource.type))
      for (const record of dnsRecordsOf(resource.type, fullView(resource.values), literalReader, resource.address))
        out.push({ ...base, name: record.name, via: [path, resource.address], dns: [record] });
  }
  return out;
}

/** A plan's resource_changes, else the resources of planned_values / values (a state) and their child modules. */
function planResources(document: Json, tooDeep: () => void): PlanResource[] {
  if (Array.isArray(document.resource_changes) && document.resource_changes.length > 0) {
    return document.resource_changes.filter(isRecord).flatMap((change) => {
      const detail = isRecord(change.change) ? change.change : {};
      const values = isRecord(detail.after) ? detail.after : isRecord(detail.before) ? detail.before : undefined;
      return resourceOf(change, values);
    });
  }
  const values = isRecord(document.planned_values)
    ? document.planned_values
    : isRecord(document.values)
      ? document.values
      : {};
  const out: PlanResource[] = [];
  // Depth first and in order, with an explicit stack: a hostile plan can nest far deeper than the call stack.
  const pending: Array<{ module: unknown; depth: number }> = [{ module: values.root_module, depth: 0 }];
  let cut = false;
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { module, depth } = next;
    if (!isRecord(module)) continue;
    for (const resource of Array.isArray(module.resources) ? module.resources.filter(isRecord) : [])
      out.push(...resourceOf(resource, isRecord(resource.values) ? resource.values : undefined));
    const children = Array.isArray(module.child_modules) ? module.child_modules : [];
    if (children.length > 0 && depth >= MAX_MODULE_DEPTH) cut = true;
    else for (let i = children.length - 1; i >= 0; i--) pending.push({ module: children[i], depth: depth + 1 });
  }
  if (cut) tooDeep();
  return out;
}

function resourceOf(entry: Json, values: Json | undefined): PlanResource[] {
  if (typeof entry.address !== 'string' || typeof entry.type !== 'string') return [];
  const moduleAddress =
    typeof entry.module_address === 'string'
      ? entry.module_address
      : /^(module\..*?)\.(?:data\.)?[a-z0-9_]+\.[^.]+$/.exec(entry.address)?.[1];
  return [
    {
      address: entry.address,
      ...(moduleAddress ? { moduleAddress } : {}),
      type: entry.type,
      ...(typeof entry.provider_name === 'string' ? { provider: entry.provider_name } : {}),
      ...(values ? { values } : {}),
    },
  ];
}

/** The region the resource's own values state: a region or location argument, or the region field of its ARN. */
function valueRegion(type: string, values: Json | undefined): string | undefined {
  if (!values) return undefined;
  if (typeof values.region === 'string' && values.region !== '') return values.region;
  if (
    (type.startsWith('google_') || type.startsWith('azurerm_')) &&
    typeof values.location === 'string' &&
    values.location !== ''
  ) {
    return type.startsWith('azurerm_') ? values.location.toLowerCase().replace(/\s+/g, '') : values.location;
  }
  if (type.startsWith('google_') && typeof values.zone === 'string' && /^[a-z]+-[a-z]+\d+-[a-z]$/.test(values.zone))
    return values.zone.slice(0, -2);
  const arn = typeof values.arn === 'string' ? values.arn.split(':') : [];
  return arn[0] === 'arn' && arn[3] ? arn[3] : undefined;
}

/** Region of each provider configuration: a constant, or a root variable whose value the plan records. */
function providerConfigRegions(configuration: Json, variables: Json): Map<string, string> {
  const regions = new Map<string, string>();
  const configs = isRecord(configuration.provider_config) ? configuration.provider_config : {};
  for (const [key, config] of Object.entries(configs)) {
    if (!isRecord(config) || !isRecord(config.expressions)) continue;
    const expression = config.expressions.region ?? config.expressions.location;
    if (!isRecord(expression)) continue;
    if (typeof expression.constant_value === 'string') regions.set(key, expression.constant_value);
    else if (Array.isArray(expression.references) && config.module_address === undefined) {
      const variable = expression.references.find(
        (reference): reference is string => typeof reference === 'string' && /^var\.[\w-]+$/.test(reference),
      );
      const value = variable ? variables[variable.slice(4)] : undefined;
      if (isRecord(value) && typeof value.value === 'string') regions.set(key, value.value);
    }
  }
  return regions;
}

/** Resource address (with module path) → the provider_config_key the configuration gives it. */
function collectConfigKeys(root: unknown, tooDeep: () => void): Map<string, string> {
  const out = new Map<string, string>();
  const pending: Array<{ module: unknown; prefix: string; depth: number }> = [{ module: root, prefix: '', depth: 0 }];
  let cut = false;
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { module, prefix, depth } = next;
    if (!isRecord(module)) continue;
    for (const resource of Array.isArray(module.resources) ? module.resources.filter(isRecord) : []) {
      if (typeof resource.address === 'string' && typeof resource.provider_config_key === 'string')
        out.set(`${prefix}${resource.address}`, resource.provider_config_key);
    }
    const calls = Object.entries(isRecord(module.module_calls) ? module.module_calls : {});
    if (calls.length > 0 && depth >= MAX_MODULE_DEPTH) cut = true;
    else
      for (const [name, call] of calls)
        if (isRecord(call)) pending.push({ module: call.module, prefix: `${prefix}module.${name}.`, depth: depth + 1 });
  }
  if (cut) tooDeep();
  return out;
}

/** Keys look like `aws`, `aws.eu`, or inside modules `module.edge:aws` (older releases wrote `edge:aws`). */
function configRegion(
  key: string | undefined,
  moduleAddress: string,
  regions: Map<string, string>,
): string | undefined {
  if (!key) return undefined;
  const candidates = [
    key,
    moduleAddress ? `${moduleAddress}:${key}` : '',
    key.includes(':') ? `module.${key}` : '',
    key.slice(key.lastIndexOf(':') + 1),
  ];
  for (const candidate of candidates) if (candidate && regions.has(candidate)) return regions.get(candidate);
  return undefined;
}

export const terraformPlanParser: Parser = {
  kind: 'terraform-plan',
  matches: (path) =>
    /(^|[.-])(tfplan|tfstate)\.json$|^(tf)?plan\.json$|^terraform-(plan|show|state)\.json$/i.test(basename(path)),
  sniff: (text) => {
    const head = text.slice(0, 4096);
    return /^\s*\{/.test(head) && /"format_version"\s*:/.test(head) && /"terraform_version"\s*:/.test(head);
  },
  parse: parseTerraformPlan,
};
