// The manifests of a project and its workspaces, read through the core for formats that do not name their
// roots (yarn v1) or drop the dev flag of workspace dependencies (yarn berry).
import { isRecord } from '../../json-text.js';
import type { InputProblem } from '../../model.js';
import { workspacePatterns } from './npm-lock-walk.js';
import type { ParseContext } from '../types.js';
import type { WorkspaceManifest } from './yarn-classic.js';

export async function readManifest(
  context: ParseContext,
  dir: string,
  path: string,
  errors: InputProblem[],
): Promise<Record<string, unknown> | undefined> {
  const file = dir === '.' ? 'package.json' : `${dir}/package.json`;
  const text = await context.readRelated(file);
  if (text === undefined) return undefined;
  try {
    const manifest: unknown = JSON.parse(text);
    if (isRecord(manifest)) return manifest;
    errors.push({
      file: path,
      message: `${file} next to this lockfile is not a JSON object; its dependencies are not used as roots`,
    });
  } catch (error) {
    errors.push({
      file: path,
      message: `${file} next to this lockfile is not valid JSON (${(error as Error).message}); its dependencies are not used as roots`,
    });
  }
  return undefined;
}

/** The root package.json and every workspace its `workspaces` globs name (`*` per segment). */
export async function readWorkspaceManifests(
  context: ParseContext,
  path: string,
  errors: InputProblem[],
): Promise<WorkspaceManifest[]> {
  const root = await readManifest(context, '.', path, errors);
  if (!root) return [];
  const out: WorkspaceManifest[] = [{ dir: '.', manifest: root }];
  const seen = new Set<string>(['.']);
  for (const pattern of workspacePatterns(root)) {
    for (const dir of await expand(context, pattern, path, errors)) {
      if (seen.has(dir)) continue;
      seen.add(dir);
      const manifest = await readManifest(context, dir, path, errors);
      if (manifest) out.push({ dir, manifest });
    }
  }
  return out;
}

async function expand(context: ParseContext, pattern: string, path: string, errors: InputProblem[]): Promise<string[]> {
  let bases = [''];
  for (const segment of pattern.replace(/^\.\//, '').replace(/\/+$/, '').split('/')) {
    if (segment === '**' || segment.startsWith('!')) {
      errors.push({
        file: path,
        message: `workspace pattern "${pattern}" is not expanded (only * within one folder name is); those workspaces count as dependencies only`,
      });
      return [];
    }
    if (!segment.includes('*')) {
      bases = bases.map((base) => (base ? `${base}/${segment}` : segment));
      continue;
    }
    const regex = new RegExp(`^${segment.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
    const next: string[] = [];
    for (const base of bases)
      for (const name of await context.listDirs(base || '.'))
        if (regex.test(name)) next.push(base ? `${base}/${name}` : name);
    bases = next;
  }
  return bases.sort();
}
