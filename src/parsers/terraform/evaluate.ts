// Walks a root module and the local modules it calls (https://developer.hashicorp.com/terraform/language/modules/syntax),
// passing variables and provider configurations down, and lists what it finds as dependencies with their region.
import type { Dependency, InputProblem } from '../../model.js';
import { downloadedModuleDir, moduleKey, type Block, type ModuleDir } from './module-dir.js';
import {
  blockRegions,
  providerConfig,
  providerKey,
  REGION_ATTRIBUTES,
  resolve,
  type ProviderConfig,
  type Scope,
} from './values.js';
import { isRecord } from '../../json-text.js';
import { providerSource, registryModuleProvider } from '../../terraform-names.js';

export interface Tree {
  modules: Map<string, ModuleDir>;
  /** Local module directories that could not be read, with the reason. */
  unreadable: Map<string, string>;
}

export interface EvaluateOptions {
  /** Skip parsing resource bodies that cannot change the answer (off in the test that proves it changes nothing). */
  fastPath: boolean;
}

/** Meta-arguments of a module call; everything else is an input variable. */
const MODULE_META = new Set(['source', 'version', 'providers', 'count', 'for_each', 'depends_on']);

export function evaluateTree(
  tree: Tree,
  roots: string[],
  options: EvaluateOptions,
): { dependencies: Dependency[]; problems: InputProblem[] } {
  const dependencies: Dependency[] = [];
  const problems: InputProblem[] = [];
  const providersListed = new Set<string>();
  const needsBody = (block: Block) =>
    !options.fastPath || block.source === undefined || REGION_ATTRIBUTES.test(block.source);

  const visit = (
    module: ModuleDir,
    scope: Omit<Scope, 'module' | 'providers' | 'needsBody'>,
    inherited: Map<string, ProviderConfig>,
    via: string[],
    stack: string[],
  ) => {
    const providers = new Map(inherited);
    const full: Scope = { ...scope, module, providers, needsBody };
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
      for (const region of orUnknown(blockRegions(block, full))) {
        dependencies.push(dependency('terraform-resource', type, block, scope.root, [...via, address], region));
      }
    }

    for (const call of module.calls) {
      const body = call.block.body();
      if (!body) continue;
      const passed = passedProviders(body.providers, providers, call.block, problems);
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
      for (const [key, value] of Object.entries(body)) if (!MODULE_META.has(key)) inputs.set(key, resolve(value, full));
      visit(child, { root: false, inputs }, passed, [...via, label], [...stack, child.dir]);
    }
  };

  for (const dir of roots) {
    const module = tree.modules.get(dir);
    if (module) visit(module, { root: true, inputs: new Map() }, new Map(), [dir], [dir]);
  }
  return { dependencies, problems };
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
