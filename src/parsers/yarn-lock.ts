// yarn.lock, both formats: v1 (classic) and v2+ (berry, recognised by its __metadata block).
import type { InputProblem } from '../model.js';
import { assertNoConflictMarkers, dirName } from './lockfile/lock-text.js';
import { basename, type FileAccess, type Parser, type ParseResult, type ParseOptions } from './types.js';
import { readManifest, readWorkspaceManifests } from './lockfile/workspace-manifests.js';
import { berryWorkspaceDirs, parseYarnBerry } from './lockfile/yarn-berry.js';
import { parseYarnClassic } from './lockfile/yarn-classic.js';
import { readYamlLock } from './lockfile/yaml-lock.js';

const FIX = 'yarn install rewrites a conflicted yarn.lock';
const isBerry = (text: string) => /^__metadata:/m.test(text);

/** Text alone: without the project's manifests, yarn v1 roots are guessed and berry workspaces keep no dev flag. */
export function parseYarnLock(text: string, path: string): ParseResult {
  assertNoConflictMarkers(text, path, FIX);
  if (isBerry(text)) return parseYarnBerry(readYamlLock(text, path), path);
  return parseYarnClassic(text, path, [], dirName(path));
}

/**
 * As the scan reads it, with the manifests next to the lockfile: yarn v1 does not name its roots, and berry drops
 * the dev flag of workspace dependencies.
 */
export async function parseYarnLockInProject(
  text: string,
  path: string,
  files: FileAccess,
  options: ParseOptions = {},
): Promise<ParseResult> {
  assertNoConflictMarkers(text, path, FIX);
  const problems: InputProblem[] = [];
  let result: ParseResult;
  if (isBerry(text)) {
    const yaml = readYamlLock(text, path);
    const devNames = new Map<string, Set<string>>();
    for (const dir of berryWorkspaceDirs(yaml)) {
      const manifest = await readManifest(files, dir, path, problems);
      if (manifest) devNames.set(dir, devOnlyNames(manifest));
    }
    result = parseYarnBerry(yaml, path, devNames, options);
  } else {
    result = parseYarnClassic(text, path, await readWorkspaceManifests(files, path, problems), dirName(path), options);
  }
  return { ...result, errors: [...problems, ...result.errors] };
}

function devOnlyNames(manifest: Record<string, unknown>): Set<string> {
  const names = new Set<string>();
  const section = (key: string) =>
    manifest[key] && typeof manifest[key] === 'object' ? Object.keys(manifest[key]) : [];
  const runtime = new Set([
    ...section('dependencies'),
    ...section('optionalDependencies'),
    ...section('peerDependencies'),
  ]);
  for (const name of section('devDependencies')) if (!runtime.has(name)) names.add(name);
  return names;
}

export const yarnLockParser: Parser = {
  kind: 'yarn-lock',
  matches: (path) => basename(path) === 'yarn.lock',
  sniff: (text) => /^# yarn lockfile v\d/m.test(text.slice(0, 512)) || /^__metadata:\s*$/m.test(text.slice(0, 512)),
  parse: parseYarnLockInProject,
  supersedes: ['package.json'],
};
