// Finds and reads `.downstack.yml`; every problem is reported as `file:line: path: message`, all at once.
import { readFile, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError, lineAt } from '../errors.js';
import { cleanLine } from '../sanitize.js';
import { configurableOptions, type OptionKey } from '../settings/options.js';
import { yamlLibrary } from '../vendored.js';
import { isInside, repositoryRoot, userDirs } from './places.js';
import { ConfigSchema, type ConfigFile } from './schema.js';

export { CONFIG_NAMES, findConfig } from './find.js';

export interface IgnoreRule {
  provider: string;
  incident?: string;
  component?: string;
  reason: string;
  expires: string;
  /** Where the rule is written, so a report can point at it. */
  file: string;
  line: number;
}

export interface Config {
  file: string;
  /** The repository the file belongs to; its paths may not lead outside it (or the user's own downstack dirs). */
  root: string;
  /** Option values the file sets, by option name (src/settings/options.ts); paths resolved against the file. */
  options: Partial<Record<OptionKey, unknown>>;
  /** Extra provider files or directories, absolute. */
  providers: string[];
  ignore: IgnoreRule[];
}

/** Reads, validates and places a config file: every problem at once, as `file:line: key: message` (exit 2). */
export async function loadConfig(file: string): Promise<Config> {
  let text: string;
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new UsageError(`${file}: the config file is not a regular file`);
    if (info.size > MAX_CONFIG_BYTES)
      throw new UsageError(`${file}: the config file is ${info.size} bytes; more than 1 MB is not a config file`);
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `${file}: cannot read the config file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  const parsed = parseConfig(text, file, await repositoryRoot(file));
  await confinePaths(parsed);
  return parsed.config;
}

/** A config is a few dozen lines; past this it is not one (and never read whole into memory). */
const MAX_CONFIG_BYTES = 1024 * 1024;

export interface ParsedConfig {
  config: Config;
  /** Each path the file names, with where it is written, for the containment check. */
  places: Array<{ key: string; line: number; written: string; path: string }>;
}

export function parseConfig(text: string, file: string, root = resolve(dirname(file))): ParsedConfig {
  const doc = yamlLibrary().parseDocument(text, { uniqueKeys: true });
  const problems = doc.errors.map(
    (error) => `${file}:${error.linePos?.[0]?.line ?? 1}: ${error.message.split('\n')[0]}`,
  );
  if (problems.length > 0) throw new UsageError(problems.join('\n'));
  let data: unknown;
  try {
    // An empty file is a valid config with nothing in it.
    data = doc.toJS({ maxAliasCount: 100 }) ?? {};
  } catch (error) {
    // The yaml library refuses documents whose aliases expand exponentially (a "billion laughs").
    throw new UsageError(`${file}: ${(error as Error).message}; a config file needs no such aliases`);
  }
  const result = ConfigSchema.safeParse(data);
  const lineOf = (path: Array<string | number>): number => {
    const node = doc.getIn(path, true) as { range?: [number, number, number] } | undefined;
    if (node?.range) return lineAt(text, node.range[0]);
    // A key whose value is empty has no node; its parent's line is the closest honest answer.
    return path.length > 0 ? lineOf(path.slice(0, -1)) : 1;
  };
  if (!result.success) {
    const lines = result.error.issues.flatMap((issue) => {
      const path = issue.path as Array<string | number>;
      // An unknown key is reported on its own line, which is where the typo is.
      if (issue.code === 'unrecognized_keys')
        return issue.keys.map((key) => `${file}:${lineOf([...path, key])}: ${[...path, key].join('.')}: unknown key`);
      return [`${file}:${lineOf(path)}: ${path.length > 0 ? `${path.join('.')}: ` : ''}${issue.message}`];
    });
    throw new UsageError(lines.join('\n'));
  }
  const base = dirname(file);
  const values = result.data as Record<string, unknown> & ConfigFile;
  const places: ParsedConfig['places'] = [];
  const options: Config['options'] = {};
  for (const [key, spec] of configurableOptions()) {
    const value = values[key];
    if (value === undefined) continue;
    if (spec.configPath && typeof value === 'string') {
      const path = resolve(base, value);
      places.push({ key, line: lineOf([key]), written: value, path });
      options[key] = path;
    } else options[key] = value;
  }
  const providers = values.providers.map((entry, index) => {
    const path = resolve(base, entry);
    places.push({ key: `providers.${index}`, line: lineOf(['providers', index]), written: entry, path });
    return path;
  });
  return {
    config: {
      file,
      root,
      options,
      providers,
      ignore: values.ignore.map((rule, index) => ({ ...rule, file, line: lineOf(['ignore', index]) })),
    },
    places,
  };
}

/** Refuses a path that leads outside the repository and the user's own downstack directories. */
async function confinePaths({ config, places }: ParsedConfig): Promise<void> {
  const allowed = [config.root, ...userDirs()];
  const problems: string[] = [];
  for (const place of places)
    if (!(await isInside(place.path, allowed)))
      problems.push(
        `${config.file}:${place.line}: ${place.key}: "${cleanLine(place.written, 200)}" leads outside the repository (${config.root}); a repository's config may only name places inside it or in your own downstack directories (use --index on the command line for anywhere else)`,
      );
  if (problems.length > 0) throw new UsageError(problems.join('\n'));
}
