// A folder scanned from inside a monorepo (`check apps/web`) belongs to a workspace whose lockfile sits at the
// workspace root above it. The package managers find that root by walking up (npm: the nearest package.json whose
// `workspaces` name the folder; pnpm: the nearest pnpm-workspace.yaml; yarn and bun as npm), and so does this, to
// read the root's lockfile for the folder's workspaces only. Never above the git root: what lies above the
// repository is not the repository's.
import { lstatSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { isRecord } from './json-text.js';
import { readTextFile } from './file-access.js';
import type { InputProblem } from './model.js';
import { yamlLibrary } from './vendored.js';
import { workspacePatterns } from './parsers/lockfile/npm-lock-walk.js';

/** Every lockfile a package manager writes at a workspace root, in the order one is picked when several are there. */
export const LOCKFILE_NAMES = [
  'npm-shrinkwrap.json',
  'package-lock.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  'bun.lock',
  'bun.lockb',
] as const;

/** A manifest or workspace file read on the way up is small; past this it is not a workspace declaration. */
const MAX_DECLARATION_BYTES = 4 * 1024 * 1024;

export interface WorkspaceRoot {
  /** The root's lockfile, named the way the scan names paths: the scanned folder's path and the way up. */
  lockfile: string;
  /** The root directory, named the same way. */
  dir: string;
  /** The file that declares the workspaces (`pnpm-workspace.yaml` or `package.json`), named the same way. */
  declaredIn: string;
  /** The scanned folder relative to the root (posix): its workspaces are those at or under it. */
  within: string;
}

export interface WorkspaceRootSearch {
  root?: WorkspaceRoot;
  /** Why a root that declares the folder was not used (no lockfile there). */
  problem?: InputProblem;
}

/**
 * The workspace root above `folder` whose declaration covers it (the folder is a workspace, or holds some), with the
 * lockfile at that root. Nothing when the folder has a lockfile or a workspace declaration of its own, is a git
 * repository's top, or no root above it (up to the git root) declares it.
 */
export async function findWorkspaceRoot(folder: string): Promise<WorkspaceRootSearch> {
  const start = resolve(folder);
  const own = namesIn(start);
  if (own === undefined || isBoundary(own) || LOCKFILE_NAMES.some((name) => own.has(name))) return {};
  if ((await declaration(start, own)) !== undefined) return {};
  for (let dir = parentOf(start); dir !== undefined; dir = parentOf(dir)) {
    const names = namesIn(dir);
    if (names === undefined) return {};
    const declared = await declaration(dir, names);
    const within = relative(dir, start).split(sep).join('/');
    if (declared && covers(declared.patterns, within)) {
      const asScanned = (name: string) => join(folder, relative(start, join(dir, name)));
      const lockfile =
        declared.file === 'pnpm-workspace.yaml' && names.has('pnpm-lock.yaml')
          ? 'pnpm-lock.yaml'
          : LOCKFILE_NAMES.find((name) => names.has(name));
      if (!lockfile)
        return {
          problem: {
            file: asScanned(declared.file),
            message: `this workspace root declares ${within} but has no lockfile; only the scanned folder's manifests are read`,
          },
        };
      return {
        root: { lockfile: asScanned(lockfile), dir: asScanned('.'), declaredIn: asScanned(declared.file), within },
      };
    }
    if (isBoundary(names)) return {};
  }
  return {};
}

/** A `.git` directory (or the `.git` file of a worktree or submodule) marks the top of a repository. */
function isBoundary(names: Set<string>): boolean {
  return names.has('.git');
}

function parentOf(dir: string): string | undefined {
  const parent = resolve(dir, '..');
  return parent === dir ? undefined : parent;
}

/** What the walk up asks of each folder: is it a repository's top, does it declare workspaces, has it a lockfile. */
const ROOT_NAMES = ['.git', 'pnpm-workspace.yaml', 'package.json', ...LOCKFILE_NAMES];

/**
 * Which of ROOT_NAMES `dir` holds (as entries of any kind, as a listing would show them), or undefined when it cannot
 * be looked into. Each name is looked up rather than the folder listed and sorted: the folders above a scan are often
 * large (a home directory, /tmp), and a parent of 8,000 entries cost the search 18 ms; nine lookups a folder cost 2.
 */
function namesIn(dir: string): Set<string> | undefined {
  const names = new Set<string>();
  for (const name of ROOT_NAMES) {
    try {
      lstatSync(join(dir, name));
      names.add(name);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return undefined;
    }
  }
  return names;
}

interface Declaration {
  file: 'pnpm-workspace.yaml' | 'package.json';
  patterns: string[];
}

/** pnpm reads pnpm-workspace.yaml and ignores package.json `workspaces`; npm, yarn and bun read the latter. */
async function declaration(dir: string, names: Set<string>): Promise<Declaration | undefined> {
  if (names.has('pnpm-workspace.yaml')) {
    const text = await readDeclaration(join(dir, 'pnpm-workspace.yaml'));
    if (text !== undefined) return { file: 'pnpm-workspace.yaml', patterns: await pnpmPatterns(text) };
  }
  if (names.has('package.json')) {
    const text = await readDeclaration(join(dir, 'package.json'));
    if (text === undefined) return undefined;
    try {
      const manifest: unknown = JSON.parse(text);
      if (isRecord(manifest) && manifest.workspaces !== undefined)
        return { file: 'package.json', patterns: workspacePatterns(manifest) };
    } catch {
      // Not this file's place to report: a broken package.json above the scan only is not a workspace root.
    }
  }
  return undefined;
}

async function readDeclaration(path: string): Promise<string | undefined> {
  const read = await readTextFile(path, { maxBytes: MAX_DECLARATION_BYTES });
  return 'text' in read ? read.text : undefined;
}

/** The `packages:` globs of a pnpm-workspace.yaml (none is the root alone, which covers no folder below it). */
async function pnpmPatterns(text: string): Promise<string[]> {
  // Loaded with the first pnpm-workspace.yaml: npm and yarn workspaces are declared in package.json.
  const { readFastYaml } = await import('./parsers/lockfile/yaml-fast.js');
  const fast = readFastYaml(text);
  let packages: unknown;
  if (fast) packages = fast.get('packages')?.value;
  else {
    // The full reader only for a file outside the fast subset, so a plain check does not load it.
    const { parse } = yamlLibrary();
    try {
      const parsed: unknown = parse(text, { maxAliasCount: 100 });
      packages = isRecord(parsed) ? parsed.packages : undefined;
    } catch {
      return [];
    }
  }
  return Array.isArray(packages) ? packages.filter((entry): entry is string => typeof entry === 'string') : [];
}

/**
 * Whether the globs make `within` a workspace or a folder holding workspaces: a glob matches it, or could match a
 * folder below it; a `!` glob that matches it takes it out. Globs are `*` within a folder name and `**` across.
 */
export function covers(patterns: readonly string[], within: string): boolean {
  const parts = within.split('/');
  const excluded = patterns
    .filter((pattern) => pattern.startsWith('!'))
    .some((pattern) => matchesFrom(segments(pattern.slice(1)), parts, false));
  if (excluded) return false;
  return patterns
    .filter((pattern) => !pattern.startsWith('!'))
    .some((pattern) => matchesFrom(segments(pattern), parts, true));
}

function segments(pattern: string): string[] {
  return pattern
    .replace(/^\.\//, '')
    .replace(/\/+$/, '')
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.');
}

/** Does the glob match `parts` (or, with `below`, some path under `parts`)? */
function matchesFrom(glob: string[], parts: string[], below: boolean): boolean {
  const [head, ...rest] = glob;
  if (head === undefined) return parts.length === 0;
  if (head === '**') {
    if (below || matchesFrom(rest, parts, below)) return true;
    return parts.length > 0 && matchesFrom(glob, parts.slice(1), below);
  }
  if (parts.length === 0) return below;
  return segmentRegex(head).test(parts[0] as string) && matchesFrom(rest, parts.slice(1), below);
}

function segmentRegex(segment: string): RegExp {
  return new RegExp(`^${segment.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
}
