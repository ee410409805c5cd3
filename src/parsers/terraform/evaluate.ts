// Walks a root module and the local modules it calls (https://developer.hashicorp.com/terraform/language/modules/syntax),
// passing variables and provider configurations down, and lists what it finds as dependencies with their region.
import type { JobCandidate } from '../../jobs/found.js';
import type { Dependency, InputProblem } from '../../model.js';
import { dnsRecordsOf, isDnsRecordResource, type RecordReader, ZONE_TYPES, zoneResourceName } from './dns-records.js';
import { downloadedModuleDir, moduleKey, type Block, type ModuleDir } from './module-dir.js';
import { blockRegions, providerConfig, providerKey, resolve, type ProviderConfig, type Scope } from './values.js';
import { isRecord } from '../../json-text.js';
import { SCHEDULE_TYPES, terraformSchedules } from './schedules.js';
import { providerSource, registryModuleProvider } from '../../terraform-names.js';

export interface Tree {
  modules: Map<string, ModuleDir>;
  /** Local module directories that could not be read, with the reason. */
  unreadable: Map<string, string>;
}

/** Meta-arguments of a module call; everything else is an input variable. */
const MODULE_META = new Set(['source', 'version', 'providers', 'count', 'for_each', 'depends_on']);
/**
 * A module reached again with the same providers and inputs yields the same dependencies, so it is read once per
 * configuration, not once per path (a "diamond" of modules each calling the next twice has 2^n paths). Real
 * configurations call a module in tens of configurations (the EKS module's tests: 100 in all); past this many
 * module readings in one tree the rest is named, so a hostile graph's cost stays bounded.
 */
export const MAX_MODULE_READS = 2_000;
/** Deeper module nesting than any real configuration; past it a call is named, not followed. */
export const MAX_MODULE_DEPTH = 64;

export function evaluateTree(
  tree: Tree,
  roots: string[],
): { dependencies: Dependency[]; problems: InputProblem[]; schedules: JobCandidate[] } {
  const dependencies: Dependency[] = [];
  const problems: InputProblem[] = [];
  const schedules: JobCandidate[] = [];
  const providersListed = new Set<string>();
  const configurations = new Map<string, Set<string>>();

  /** False when this module was already read with these providers and inputs, or too often to read again. */
  let reads = 0;
  let budgetNamed = false;
  /** False when this module was already read with these providers and inputs, or the tree's budget is spent. */
  const firstTime = (
    module: ModuleDir,
    root: boolean,
    providers: Map<string, ProviderConfig>,
    inputs: Map<string, string[]>,
    call?: Block,
  ): boolean => {
    const key = JSON.stringify([
      root,
      [...providers].map(([name, config]) => [name, config.regions]).sort(),
      [...inputs].sort(),
    ]);
    let seen = configurations.get(module.dir);
    if (!seen) configurations.set(module.dir, (seen = new Set()));
    if (seen.has(key)) return false;
    if (reads >= MAX_MODULE_READS) {
      if (call && !budgetNamed)
        problems.push({
          file: call.file,
          line: call.line,
          message: `module "${call.labels[0]}": the modules here are reached in more than ${MAX_MODULE_READS} different configurations; ${module.dir} and the rest past that are not read`,
        });
      budgetNamed = true;
      return false;
    }
    reads++;
    seen.add(key);
    return true;
  };

  const visit = (
    module: ModuleDir,
    scope: Omit<Scope, 'module' | 'providers'>,
    inherited: Map<string, ProviderConfig>,
    via: string[],
    stack: string[],
  ) => {
    const providers = new Map(inherited);
    const full: Scope = { ...scope, module, providers };
    for (const block of module.providers) {
      const config = providerConfig(block, full);
      if (config) providers.set(config.key, config);
    }
    if (!providersListed.has(module.dir)) {
      providersListed.add(module.dir);
      dependencies.push(...providerDependencies(module, scope.root, via));
    }

    for (const block of module.resources) {
      const [type, name] = block.labels as [string, string];
      const address = `${block.type === 'data' ? 'data.' : ''}${type}.${name}`;
      const own = orUnknown(blockRegions(block, full)).map((region) =>
        dependency('terraform-resource', type, block, scope.root, [...via, address], region),
      );
      dependencies.push(...own);
      if (block.type === 'resource' && SCHEDULE_TYPES.has(type)) {
        const found = terraformSchedules(block, full, own, [...via.slice(1), address].join('.'));
        schedules.push(...found.candidates);
        problems.push(...found.notes);
      }
      if (block.type === 'resource') dependencies.push(...dnsDependencies(block, full, [...via, address]));
    }

    for (const call of module.calls) {
      const body = call.block.view();
      if (!body) continue;
      const passed = passedProviders(body.get('providers'), providers, call.block, problems);
      const label = `module.${call.name}`;
      // A remote module is read where `terraform init` downloaded it; without that it counts as a module call.
      const childDir =
        call.localDir ?? downloadedModuleDir(via[0] as string, [...moduleKey(via), call.name], call.source);
      if (call.localDir === undefined && !tree.modules.has(childDir)) {
        const target = registryModuleProvider(call.source);
        const regions = target ? (passed.get(target)?.regions ?? []) : [];
        for (const region of orUnknown(regions)) {
          dependencies.push(
            dependency('terraform-module', call.source, call.block, scope.root, [...via, label], region, call.version),
          );
        }
        continue;
      }
      if (stack.length >= MAX_MODULE_DEPTH) {
        problems.push({
          file: call.block.file,
          line: call.block.line,
          message: `module "${call.name}": modules nested more than ${MAX_MODULE_DEPTH} deep; ${call.source} is not followed`,
        });
        continue;
      }
      if (stack.includes(childDir)) {
        problems.push({
          file: call.block.file,
          line: call.block.line,
          message: `module "${call.name}": ${call.source} is already being read (${[...stack, childDir].join(' → ')}); not followed again`,
        });
        continue;
      }
      const child = tree.modules.get(childDir);
      if (!child) {
        const reason = tree.unreadable.get(childDir) ?? 'not available from this input';
        problems.push({
          file: call.block.file,
          line: call.block.line,
          message: `module "${call.name}": cannot read ${call.source} (${reason}); its resources are not counted`,
        });
        continue;
      }
      const inputs = new Map<string, string[]>();
      for (const key of body.names()) if (!MODULE_META.has(key)) inputs.set(key, resolve(body.resolvable(key), full));
      if (!firstTime(child, false, passed, inputs, call.block)) continue;
      visit(child, { root: false, inputs }, passed, [...via, label], [...stack, child.dir]);
    }
  };

  for (const dir of roots) {
    const module = tree.modules.get(dir);
    if (module && firstTime(module, true, new Map(), new Map()))
      visit(module, { root: true, inputs: new Map() }, new Map(), [dir], [dir]);
  }
  return { dependencies, problems, schedules };
}

/**
 * A DNS record resource becomes a domain per record it declares, carrying that record; a public zone becomes a
 * domain of its own (the team's), which DNS detection may look up.
 */
function dnsDependencies(block: Block, scope: Scope, via: string[]): Dependency[] {
  const type = block.labels[0] ?? '';
  const isZone = ZONE_TYPES.has(type);
  if (!isZone && !isDnsRecordResource(type)) return [];
  const body = block.view();
  if (!body) return [];
  const reader = scopeReader(scope);
  const base = { ecosystem: 'domain' as const, file: block.file, line: block.line, direct: scope.root, via };
  if (isZone) {
    const zone = zoneResourceName(type, body, reader);
    return zone ? [{ ...base, name: zone, via: [...via, zone] }] : [];
  }
  return dnsRecordsOf(type, body, reader, via.at(-1) ?? type).map((record) => ({
    ...base,
    name: record.name,
    dns: [record],
  }));
}

const ZONE_REFERENCE =
  /\$\{\s*(data\.)?(aws_route53_zone|cloudflare_zone|google_dns_managed_zone|azurerm_dns_zone)\.([\w-]+)\.[\w]+\s*\}/g;

/** Reads record attributes in a module's scope; a reference to a zone resource stands for that zone's name. */
function scopeReader(scope: Scope): RecordReader {
  const zoneOf = (data: boolean, type: string, label: string): string | undefined => {
    const block = scope.module.resources.find(
      (candidate) =>
        candidate.type === (data ? 'data' : 'resource') &&
        candidate.labels[0] === type &&
        candidate.labels[1] === label,
    );
    const body = block?.view();
    return body ? zoneResourceName(type, body, reader) : undefined;
  };
  const reader: RecordReader = {
    values(expression) {
      if (Array.isArray(expression)) return expression.flatMap((item) => reader.values(item));
      if (typeof expression === 'number') return [String(expression)];
      if (typeof expression !== 'string') return [];
      let unknown = false;
      const substituted = expression.replace(
        ZONE_REFERENCE,
        (_, data: string | undefined, type: string, label: string) => {
          const zone = zoneOf(data !== undefined, type, label);
          if (!zone) unknown = true;
          return zone ?? '';
        },
      );
      if (unknown) return [];
      return resolve(substituted, scope);
    },
    zoneName(expression) {
      if (typeof expression !== 'string') return undefined;
      const reference = new RegExp(ZONE_REFERENCE.source).exec(expression.trim());
      if (reference) return zoneOf(reference[1] !== undefined, reference[2] as string, reference[3] as string);
      // A literal zone name (azurerm zone_name, a variable); a Route 53 zone id such as Z0123 is not one.
      const [value] = resolve(expression, scope);
      return value?.includes('.') ? value.toLowerCase().replace(/\.$/, '') : undefined;
    },
  };
  return reader;
}

function orUnknown(regions: string[]): Array<string | undefined> {
  return regions.length > 0 ? regions : [undefined];
}

function dependency(
  ecosystem: Dependency['ecosystem'],
  name: string,
  block: Block,
  direct: boolean,
  via: string[],
  region?: string,
  version?: string,
): Dependency {
  return {
    ecosystem,
    name,
    ...(version ? { version } : {}),
    ...(region ? { region } : {}),
    file: block.file,
    line: block.line,
    direct,
    via,
  };
}

/** required_providers entries, and providers configured without one (implied `hashicorp/<name>`, named bare). */
function providerDependencies(module: ModuleDir, root: boolean, via: string[]): Dependency[] {
  const out: Dependency[] = [];
  for (const [local, spec] of module.requiredProviders) {
    const name = spec.source ? providerSource(spec.source) : local;
    out.push({
      ...dependency('terraform-provider', name, spec.block, root, [...via, name], undefined, spec.version),
      line: spec.line,
    });
  }
  const seen = new Set(module.requiredProviders.keys());
  for (const block of module.providers) {
    const local = block.labels[0];
    if (!local || seen.has(local)) continue;
    seen.add(local);
    out.push(dependency('terraform-provider', local, block, root, [...via, local]));
  }
  return out;
}

/**
 * A module call's `providers = { aws = aws.eu }` map; without one, the caller's default (unaliased)
 * configurations are inherited, as Terraform does.
 */
function passedProviders(
  map: unknown,
  caller: Map<string, ProviderConfig>,
  block: Block,
  problems: InputProblem[],
): Map<string, ProviderConfig> {
  const passed = new Map<string, ProviderConfig>();
  if (!isRecord(map)) {
    for (const [key, config] of caller) if (!key.includes('.')) passed.set(key, config);
    return passed;
  }
  for (const [childKey, reference] of Object.entries(map)) {
    const parentKey = typeof reference === 'string' ? providerKey(reference) : '';
    const config = caller.get(parentKey);
    if (!config)
      problems.push({
        file: block.file,
        line: block.line,
        message: `module "${block.labels[0]}": providers.${childKey} refers to ${parentKey || 'an expression'}, which has no provider block here; its region is unknown`,
      });
    passed.set(childKey, { key: childKey, regions: config?.regions ?? [] });
  }
  return passed;
}
