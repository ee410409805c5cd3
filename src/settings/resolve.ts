// Settings, resolved once per run and the same way for every command: each option takes the command line's value,
// else its environment variable's, else the `.downstack.yml` value, else its built-in default; the catalog is the
// built-in one (or $DOWNSTACK_PROVIDERS_DIR) plus the config's providers; the index is --index, $DOWNSTACK_INDEX,
// the config's `index:`, or the user cache directory.
import { stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import envPaths from 'env-paths';
import { builtInCatalog, type Catalog } from '../catalog/catalog.js';
import { findConfig } from '../config/find.js';
import type { Config } from '../config/load.js';
import { UsageError } from '../errors.js';
import { PROVIDERS_DIR } from '../paths.js';
import { type CommandName, type OptionKey, type OptionSpec, optionsOf } from './options.js';

/** What the command line gave, as commander parsed it. */
export interface ParsedFlags {
  command: CommandName;
  /** Option values by attribute name, defaults included. */
  values: Record<string, unknown>;
  /** Attribute names whose value was typed on the command line (not a default). */
  given: ReadonlySet<string>;
}

/**
 * The process environment. Settings read the variables options declare (`env`, e.g. DOWNSTACK_INDEX) and
 * DOWNSTACK_PROVIDERS_DIR: a catalog directory used in place of the built-in one (the one seam tests use to give
 * the CLI a catalog, and a way to run from your own checkout of it).
 */
export type Environment = Readonly<Record<string, string | undefined>>;

export interface Settings<F> {
  command: CommandName;
  /** Every option of the command with command line, environment, config file and default applied in that order. */
  flags: F;
  /** The config file that applied, if any. */
  config?: Config;
  indexDir: string;
  /** The catalog's sources: the built-in directory (or its replacement), then the config's provider paths. */
  catalogDirs: string[];
  /** The catalog, loaded on first use. */
  catalog(): Catalog;
  /** Providers defined by the repository's config (not the built-in catalog or its replacement). */
  repositoryProviders(): Set<string>;
}

/**
 * `paths` are what the command scans (a config is looked for there first, then in the working directory); commands
 * that scan nothing pass [].
 */
export async function resolveSettings<F>(paths: string[], flags: ParsedFlags, env: Environment): Promise<Settings<F>> {
  const explicit = typeof flags.values.config === 'string' ? flags.values.config : undefined;
  const configFile = await findConfig(paths, explicit);
  const config = configFile ? await (await import('../config/load.js')).loadConfig(configFile) : undefined;
  const values: Record<string, unknown> = { ...flags.values };
  for (const [key, spec, use] of optionsOf(flags.command)) {
    if (flags.given.has(key)) continue;
    const fromEnv = spec.env ? env[spec.env] : undefined;
    if (fromEnv) values[key] = fromEnvironment(spec, fromEnv);
    else if (use.fromConfig && config?.options[key as OptionKey] !== undefined)
      values[key] = config.options[key as OptionKey];
  }
  const indexDir = typeof values.index === 'string' ? values.index : defaultIndexDir();
  if (optionsOf(flags.command).some(([key]) => key === 'index')) await assertDirectory(indexDir);
  const catalogDirs = [env.DOWNSTACK_PROVIDERS_DIR || PROVIDERS_DIR, ...(config?.providers ?? [])];
  // The built-in catalog alone comes from its build-time copy; anything else is read from YAML by the loader, which
  // (with the YAML reader and zod) is loaded only then.
  let catalog = catalogDirs.length === 1 && catalogDirs[0] === PROVIDERS_DIR ? builtInCatalog() : undefined;
  const loadCatalog = catalog ? undefined : (await import('../catalog/loader.js')).loadCatalog;
  const load = () => (catalog ??= (loadCatalog as NonNullable<typeof loadCatalog>)(catalogDirs));
  return {
    command: flags.command,
    flags: values as F,
    ...(config ? { config } : {}),
    indexDir,
    catalogDirs,
    catalog: load,
    repositoryProviders: () => {
      const own = config?.providers ?? [];
      // Without catalog folders of its own, the repository has no providers of its own (and the catalog's files are
      // not walked for it).
      if (own.length === 0) return new Set<string>();
      const loaded = load();
      return new Set(
        [...loaded.providers.values()]
          .filter((provider) => own.some((path) => isWithin(resolve(provider.file), path)))
          .map((provider) => provider.id),
      );
    },
  };
}

/** The user's cache directory (`~/.cache/downstack/index` on Linux). */
export function defaultIndexDir(): string {
  return join(envPaths('downstack', { suffix: '' }).cache, 'index');
}

/** The index may not exist yet (sync creates it), but when something is there it must be a directory. */
async function assertDirectory(dir: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (info && !info.isDirectory())
    throw new UsageError(
      `the incident index ${dir} is a file, not a directory (--index, $DOWNSTACK_INDEX and .downstack.yml index: name a directory)`,
    );
}

function fromEnvironment(spec: OptionSpec, value: string): unknown {
  return spec.parse ? spec.parse(value, spec.env ?? '') : value;
}

function isWithin(file: string, path: string): boolean {
  return file === path || file.startsWith(path.endsWith(sep) ? path : `${path}${sep}`);
}
