// Finds and reads `.downstack.yml`; every problem is reported as `file:line: path: message`, all at once.
import { readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { UsageError, lineAt } from '../errors.js';
import { ConfigSchema, type ConfigFile } from './schema.js';

export const CONFIG_NAMES = ['.downstack.yml', '.downstack.yaml'];

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
  since?: string;
  failOn?: 'none' | 'active' | 'any';
  format?: ConfigFile['format'];
  omit?: Array<'dev'>;
  /** Absolute paths, resolved against the config file's directory. */
  index?: string;
  providers: string[];
  ignore: IgnoreRule[];
}

/**
 * `--config FILE` wins; otherwise the first `.downstack.yml` in a scanned directory (or a scanned file's
 * directory), then in the working directory. Returns undefined when there is none.
 */
export async function findConfig(paths: string[], explicit?: string): Promise<string | undefined> {
  if (explicit) return explicit;
  const dirs: string[] = [];
  for (const path of paths) {
    if (path === '-') continue;
    const info = await stat(path).catch(() => undefined);
    if (info) dirs.push(info.isDirectory() ? path : dirname(path));
  }
  dirs.push('.');
  const seen = new Set<string>();
  for (const dir of dirs) {
    const absolute = resolve(dir);
    if (seen.has(absolute)) continue;
    seen.add(absolute);
    for (const name of CONFIG_NAMES) {
      const file = join(dir, name);
      if (
        await stat(file).then(
          (info) => info.isFile(),
          () => false,
        )
      )
        return file;
    }
  }
  return undefined;
}

export async function loadConfig(file: string): Promise<Config> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `${file}: cannot read the config file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  return parseConfig(text, file);
}

export function parseConfig(text: string, file: string): Config {
  const doc = parseDocument(text, { uniqueKeys: true });
  const problems = doc.errors.map(
    (error) => `${file}:${error.linePos?.[0]?.line ?? 1}: ${error.message.split('\n')[0]}`,
  );
  if (problems.length > 0) throw new UsageError(problems.join('\n'));
  // An empty file is a valid config with nothing in it.
  const result = ConfigSchema.safeParse(doc.toJS() ?? {});
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
  const data = result.data;
  return {
    file,
    ...(data.since ? { since: data.since } : {}),
    ...(data.failOn ? { failOn: data.failOn } : {}),
    ...(data.format ? { format: data.format } : {}),
    ...(data.omit ? { omit: data.omit } : {}),
    ...(data.index ? { index: resolve(base, data.index) } : {}),
    providers: data.providers.map((dir) => resolve(base, dir)),
    ignore: data.ignore.map((rule, index) => ({ ...rule, file, line: lineOf(['ignore', index]) })),
  };
}
