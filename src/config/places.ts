// Where paths written in a repository's `.downstack.yml` may lead: inside the repository, or the user's own
// downstack config and cache directories. A cloned repository must not make downstack read or write elsewhere
// (`index: ../victim`), so a path is checked after symbolic links are followed as far as they exist.
import { stat } from 'node:fs/promises';
import { realpathOfExisting } from '../file-access.js';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import envPaths from 'env-paths';

const VCS_MARKERS = ['.git', '.hg', '.svn'];

/**
 * The repository a config file belongs to: the nearest ancestor of its directory holding a `.git`, `.hg` or `.svn`
 * (a file or a directory: worktrees and submodules have a `.git` file), or the directory itself outside any.
 */
export async function repositoryRoot(configFile: string): Promise<string> {
  const start = resolve(dirname(configFile));
  for (let dir = start; ; dir = dirname(dir)) {
    for (const marker of VCS_MARKERS) if (await exists(join(dir, marker))) return dir;
    if (dirname(dir) === dir) return start;
  }
}

/** The user's own downstack directories, which a config may always name. */
export function userDirs(): string[] {
  const paths = envPaths('downstack', { suffix: '' });
  return [paths.cache, paths.config, paths.data];
}

/** Whether `path` (absolute) is inside one of `roots` once symbolic links are followed. */
export async function isInside(path: string, roots: string[]): Promise<boolean> {
  const target = await realpathOfExisting(resolve(path));
  for (const root of roots) {
    const real = await realpathOfExisting(resolve(root));
    const rel = relative(real, target);
    if (rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel))) return true;
  }
  return false;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
