// package-lock.json and npm-shrinkwrap.json: https://docs.npmjs.com/cli/configuring-npm/package-lock-json
import { ParseError } from '../errors.js';
import { isRecord, parseJsonText } from '../json-text.js';
import type { InputProblem } from '../model.js';
import { dependenciesFromGraph, type LockGraph } from './lockfile/lock-graph.js';
import { alignedLines, entryLines, graphFromPackages } from './lockfile/npm-lock-walk.js';
import { assertNoConflictMarkers, dirName } from './lockfile/lock-text.js';
import {
  basename,
  besides,
  type FileAccess,
  inScope,
  type Parser,
  type ParseResult,
  type ParseOptions,
  type ParseScope,
} from './types.js';

const FIX = 'npm install rewrites a conflicted package-lock.json';

interface LoadedLock {
  lock: Record<string, unknown>;
  errors: InputProblem[];
}

function load(text: string, path: string): LoadedLock {
  let lock: unknown;
  try {
    lock = parseJsonText(text, path);
  } catch (error) {
    // Conflict markers are never valid JSON: looked for only once the parse failed, to name the real cause.
    assertNoConflictMarkers(text, path, FIX);
    throw error;
  }
  if (!isRecord(lock)) throw new ParseError(path, 1, 'a package lockfile must hold a JSON object');
  const errors: InputProblem[] = [];
  const version = lock.lockfileVersion;
  if (version !== 1 && version !== 2 && version !== 3) {
    errors.push({
      file: path,
      line: 1,
      message: `unknown lockfileVersion ${JSON.stringify(version)} (expected 1, 2 or 3); read as ${isRecord(lock.packages) ? 'v3' : 'v1'}`,
    });
  }
  if (!isRecord(lock.packages) && !isRecord(lock.dependencies))
    throw new ParseError(path, 1, 'no "packages" or "dependencies" in this lockfile');
  return { lock, errors };
}

/** Line of every entry key, reporting keys listed twice. */
function keyLines(text: string, path: string, errors: InputProblem[]): Map<string, number> {
  const duplicates: Array<{ key: string; line: number }> = [];
  const lines = entryLines(text, duplicates);
  for (const { key, line } of duplicates)
    errors.push({ file: path, line, message: `"${key}" is listed twice; the later entry is used, as npm does` });
  return lines;
}

/** The fast path, text alone: v2/v3 lockfiles carry every package and the root's manifest in `packages`. */
export function parseNpmLock(text: string, path: string): ParseResult {
  return walk(load(text, path), text, path);
}

/** As the scan reads it: the fast path for v2/v3; v1 through npm's arborist, with the package.json next to it. */
export async function parseNpmLockInProject(
  text: string,
  path: string,
  files: FileAccess,
  options: ParseOptions = {},
): Promise<ParseResult> {
  const loaded = load(text, path);
  if (isRecord(loaded.lock.packages)) return walk(loaded, text, path, options);
  const manifest = await files.read(besides(path, 'package.json'));
  return readWithArborist(loaded, text, path, 'text' in manifest ? manifest.text : undefined, options);
}

function walk({ lock, errors }: LoadedLock, text: string, path: string, options: ParseOptions = {}): ParseResult {
  if (!isRecord(lock.packages))
    throw new ParseError(path, 1, 'a v1 lockfile (no "packages" map) is read through npm\'s arborist');
  const locations = Object.keys(lock.packages);
  const aligned = alignedLines(text, locations);
  const lines = aligned ? undefined : keyLines(text, path, errors);
  const lineOf = aligned
    ? (_location: string, index: number) => aligned[index]
    : (location: string) => lines?.get(location);
  const graph = graphFromPackages(lock.packages, lineOf, rootName(lock, path), locations);
  return {
    ...dependenciesFromGraph(graph, path, 'npm', options),
    errors,
    projectDirs: projectDirs(graph, options.scope),
    ownPackages: graph.roots.map((root) => root.name),
  };
}

/** The reference path through @npmcli/arborist: always for v1, and for proving the fast path right. */
export async function parseNpmLockWithArborist(text: string, path: string, manifest?: string): Promise<ParseResult> {
  return readWithArborist(load(text, path), text, path, manifest);
}

async function readWithArborist(
  { lock, errors }: LoadedLock,
  text: string,
  path: string,
  manifest?: string,
  options: ParseOptions = {},
): Promise<ParseResult> {
  const lines = keyLines(text, path, errors);
  const fileName = basename(path) === 'npm-shrinkwrap.json' ? 'npm-shrinkwrap.json' : 'package-lock.json';
  // Loaded for a v1 lockfile (or the fast path's proof) only: v2 and v3 lockfiles are read without arborist.
  const { graphFromArborist } = await import('./lockfile/npm-lock-arborist.js');
  const graph = await graphFromArborist(
    { lock, text, fileName, manifest, lines, fallbackRootName: rootName(lock, path) },
    path,
    errors,
  );
  return {
    ...dependenciesFromGraph(graph, path, 'npm', options),
    errors,
    projectDirs: projectDirs(graph, options.scope),
    ownPackages: graph.roots.map((root) => root.name),
  };
}

/**
 * The root, its workspaces and linked local packages: the lockfile accounts for all of their manifests (read for a
 * scope, for those inside it).
 */
function projectDirs(graph: LockGraph, scope?: ParseScope): string[] {
  return [...graph.nodes.keys()]
    .filter((id) => !id.includes('node_modules/') && !id.startsWith('..'))
    .map((id) => id || '.')
    .filter((dir) => !scope || inScope(dir, scope));
}

function rootName(lock: Record<string, unknown>, path: string): string {
  return typeof lock.name === 'string' && lock.name !== '' ? lock.name : dirName(path);
}

const sniff = (text: string) =>
  /^\s*\{/.test(text) &&
  /"lockfileVersion"\s*:\s*\d/.test(text.slice(0, 4096)) &&
  /"(packages|dependencies)"\s*:/.test(text);

export const npmLockParser: Parser = {
  kind: 'package-lock',
  matches: (path) => basename(path) === 'package-lock.json',
  sniff,
  parse: parseNpmLockInProject,
  supersedes: ['package.json'],
};

/** npm uses npm-shrinkwrap.json over package-lock.json when both exist. */
export const npmShrinkwrapParser: Parser = {
  kind: 'npm-shrinkwrap',
  matches: (path) => basename(path) === 'npm-shrinkwrap.json',
  sniff: () => false,
  parse: parseNpmLockInProject,
  supersedes: ['package.json', 'package-lock.json'],
};
