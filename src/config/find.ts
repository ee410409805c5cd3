// Where `.downstack.yml` is, apart from reading it (src/config/load.ts): every run looks for one, and only a run that
// finds one loads the YAML reader and the schema.
import { stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

export const CONFIG_NAMES = ['.downstack.yml', '.downstack.yaml'];

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
