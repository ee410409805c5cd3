// The manifests of a project and its workspaces, read through the core for formats that do not name their
// roots (yarn v1) or drop the dev flag of workspace dependencies (yarn berry).
import { isRecord } from '../../json-text.js';
import type { InputProblem } from '../../model.js';
import { workspacePatterns } from './npm-lock-walk.js';
import { besides, type FileAccess } from '../types.js';
import type { WorkspaceManifest } from './yarn-classic.js';

export async function readManifest(
  files: FileAccess,
  dir: string,
  path: string,
  errors: InputProblem[],
): Promise<Record<string, unknown> | undefined> {
  const file = dir === '.' ? 'package.json' : `${dir}/package.json`;
  const read = await files.read(besides(path, file));
  if ('failed' in read) {
    // Missing or outside the scan is normal (a workspace without a manifest, a pattern into node_modules).
    if (read.failed === 'unreadable') errors.push({ file: besides(path, file), message: read.reason });
    return undefined;
  }
  try {
    const manifest: unknown = JSON.parse(read.text);
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
  files: FileAccess,
  path: string,
  errors: InputProblem[],
): Promise<WorkspaceManifest[]> {
  const root = await readManifest(files, '.', path, errors);
  if (!root) return [];
  const out: WorkspaceManifest[] = [{ dir: '.', manifest: root }];
  const seen = new Set<string>(['.']);
  for (const pattern of workspacePatterns(root)) {
    for (const dir of await expand(files, pattern, path, errors)) {
      if (seen.has(dir)) continue;
      seen.add(dir);
      const manifest = await readManifest(files, dir, path, errors);
      if (manifest) out.push({ dir, manifest });
    }
  }
  return out;
}

async function expand(files: FileAccess, pattern: string, path: string, errors: InputProblem[]): Promise<string[]> {
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
    for (const base of bases) {
      const listed = await files.list(besides(path, base || '.'));
      if ('failed' in listed) {
        if (listed.failed === 'unreadable') errors.push({ file: besides(path, base || '.'), message: listed.reason });
        continue;
      }
      for (const name of listed.dirs) if (regex.test(name)) next.push(base ? `${base}/${name}` : name);
    }
    bases = next;
  }
  return bases.sort();
}
