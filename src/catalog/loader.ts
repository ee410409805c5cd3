// Loads providers/<id>.yaml and reports every problem at once (file:line: path: message), never just the first.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { CatalogError, lineAt } from '../errors.js';
import { PROVIDERS_DIR } from '../paths.js';
import { yamlLibrary } from '../vendored.js';
import { readCachedProviders } from './cache.js';
import { type Catalog, findComponent } from './catalog.js';
import { MATCHER_KINDS, matchersOf, npmExcluded } from './matchers.js';
import { ProviderSchema, type Provider } from './schema.js';

const ID = /^[a-z0-9][a-z0-9-]*$/;

export { type Catalog, findComponent } from './catalog.js';

const YAML_FILE = /\.ya?ml$/;
const MAX_PROVIDER_BYTES = 1024 * 1024;

/**
 * Reads every `*.yaml` in the given directories, or the given `*.yaml` files themselves (later entries may add
 * providers, not redefine them).
 */
export function loadCatalog(dirs: string[] = [PROVIDERS_DIR], options: { cache?: boolean } = {}): Catalog {
  const problems: string[] = [];
  const providers = new Map<string, Provider>();
  for (const dir of dirs) {
    // Only the built-in catalog has a build-time copy (see cache.ts).
    const cached =
      options.cache !== false && resolve(dir) === resolve(PROVIDERS_DIR) ? readCachedProviders(dir) : undefined;
    if (cached) {
      for (const provider of cached) {
        if (providers.has(provider.id))
          problems.push(
            `${provider.file}: provider "${provider.id}" is already defined in ${providers.get(provider.id)?.file}`,
          );
        else providers.set(provider.id, provider);
      }
      continue;
    }
    let files: string[];
    try {
      files =
        YAML_FILE.test(dir) && statSync(dir).isFile()
          ? [dir]
          : readdirSync(dir)
              .filter((name) => YAML_FILE.test(name))
              .sort()
              .map((name) => join(dir, name));
    } catch (error) {
      problems.push(`${dir}: ${(error as Error).message}`);
      continue;
    }
    for (const file of files) {
      const id = basename(file).replace(YAML_FILE, '');
      const provider = loadProviderFile(file, id, problems);
      if (!provider) continue;
      if (providers.has(id))
        problems.push(`${file}: provider "${id}" is already defined in ${providers.get(id)?.file}`);
      else providers.set(id, provider);
    }
  }
  problems.push(...crossCheck(providers));
  if (problems.length > 0) throw new CatalogError(problems);
  return { providers };
}

export function loadProviderFile(file: string, id: string, problems: string[]): Provider | undefined {
  if (!ID.test(id)) problems.push(`${file}: file name must be a lowercase id (a-z, 0-9, -)`);
  // A repository's own provider files are read too: a named pipe would block, a huge file is no provider.
  let info: ReturnType<typeof statSync>;
  try {
    info = statSync(file);
  } catch (error) {
    problems.push(`${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    return undefined;
  }
  if (!info.isFile() || info.size > MAX_PROVIDER_BYTES) {
    problems.push(`${file}: ${info.isFile() ? 'larger than 1 MB' : 'not a regular file'}; not a provider file`);
    return undefined;
  }
  const text = readFileSync(file, 'utf8');
  const doc = yamlLibrary().parseDocument(text, { uniqueKeys: true });
  for (const error of doc.errors)
    problems.push(`${file}:${error.linePos?.[0]?.line ?? 1}: ${error.message.split('\n')[0]}`);
  if (doc.errors.length > 0) return undefined;
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    // The yaml library refuses aliases that expand exponentially (a "billion laughs"); no provider needs them.
    problems.push(`${file}: ${(error as Error).message}`);
    return undefined;
  }
  const result = ProviderSchema.safeParse(data);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const node = doc.getIn(issue.path as Array<string | number>, true) as
        | { range?: [number, number, number] }
        | undefined;
      const line = node?.range ? lineAt(text, node.range[0]) : 1;
      const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
      problems.push(`${file}:${line}: ${where}${issue.message}`);
    }
    return undefined;
  }
  return { ...result.data, id, file };
}

/** Checks that need the whole catalog: references resolve and no matcher is claimed twice. */
function crossCheck(providers: Map<string, Provider>): string[] {
  const problems: string[] = [];
  const claims = new Map<string, string>();
  const related = (a: string, b: string) =>
    providers.get(a)?.parent === b ||
    providers.get(b)?.parent === a ||
    (providers.get(a)?.parent === providers.get(b)?.parent && providers.get(a)?.parent !== undefined);
  const claim = (key: string, id: string, file: string) => {
    const owner = claims.get(key);
    if (owner && owner !== id && !related(owner, id))
      problems.push(`${file}: ${key} is also claimed by provider "${owner}"`);
    else if (!owner) claims.set(key, id);
  };

  for (const provider of providers.values()) {
    const { id, file } = provider;
    if (provider.parent && !providers.has(provider.parent))
      problems.push(`${file}: parent "${provider.parent}" is not a provider in the catalog`);
    for (const upstream of provider.runsOn ?? []) {
      const target = providers.get(upstream.provider);
      if (!target) {
        problems.push(`${file}: runsOn "${upstream.provider}" is not a provider in the catalog`);
        continue;
      }
      for (const component of upstream.components ?? []) {
        if (!findComponent(target, component))
          problems.push(
            `${file}: runsOn ${upstream.provider} names component "${component}", which ${target.file} does not list`,
          );
      }
    }
    const matchers = matchersOf(provider);
    if (matchers.length === 0)
      problems.push(`${file}: has no matcher (npm, terraform, domains or dns), so nothing can ever map to it`);
    for (const entry of matchers) {
      const key = entry.component === undefined ? MATCHER_KINDS[entry.kind]?.claim?.(entry.value) : undefined;
      if (key) claim(key, id, file);
    }
    problems.push(...excludeProblems(provider, matchers));
    const names = new Set<string>();
    for (const component of provider.components) {
      const key = component.name.toLowerCase();
      if (names.has(key)) problems.push(`${file}: component "${component.name}" is listed twice`);
      names.add(key);
    }
  }
  return problems;
}

/**
 * An `npmExclude` entry must narrow one of the provider's own `@scope/*` patterns (otherwise it is a typo or a dead
 * rule), and must not take back a name the provider claims by name.
 */
function excludeProblems(provider: Provider, matchers: ReturnType<typeof matchersOf>): string[] {
  const excludes = provider.match.npmExclude ?? [];
  if (excludes.length === 0) return [];
  const npm = matchers.filter((entry) => entry.kind === 'npm').map((entry) => entry.value);
  const scopes = new Set(npm.filter((value) => value.endsWith('/*')).map((value) => value.slice(0, -2).toLowerCase()));
  const problems: string[] = [];
  for (const exclude of excludes) {
    if (!scopes.has(exclude.slice(0, exclude.indexOf('/')).toLowerCase()))
      problems.push(`${provider.file}: npmExclude "${exclude}" is under none of this provider's "@scope/*" patterns`);
  }
  for (const name of npm)
    if (!name.endsWith('/*') && npmExcluded(excludes, name))
      problems.push(`${provider.file}: npm "${name}" is both claimed and excluded by npmExclude`);
  return problems;
}
