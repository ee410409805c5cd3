// The core's file side: walks paths, reads files (src/file-access.ts), and hands text to the parsers with the one
// FileAccess handle they may read more through.
import type { Dirent } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { createRequire } from 'node:module';
import type { Ignore } from 'ignore';
import { ParseError } from './errors.js';
import {
  createFileAccess,
  describeFsError,
  insideRoots,
  MAX_INPUT_BYTES,
  readDirectory,
  readTextFile,
  SKIPPED_DIRS,
} from './file-access.js';
import type { InputProblem, InputResult } from './model.js';
import { entryForPath, type ParserEntry, parserForText } from './parsers/index.js';
import {
  type FileAccess,
  NO_FILES,
  type ParseOptions,
  type Parser,
  type ParseScope,
  type SourceFile,
} from './parsers/types.js';
import { findWorkspaceRoot, type WorkspaceRoot } from './workspace-root.js';

export { MAX_INPUT_BYTES } from './file-access.js';

export interface ScanResult {
  inputs: InputResult[];
  /** Paths that could not be read at all (missing, unreadable, binary, too large, unsupported). */
  errors: InputProblem[];
}

/** The repository's own package names the scanned lockfiles list (root and workspaces): see exposuresFor. */
export function ownPackages(inputs: readonly InputResult[]): string[] {
  return inputs.flatMap((input) => input.ownPackages ?? []);
}

export interface ScanOptions {
  /** Reads standard input when a path is `-`; injected so the core never touches `process`. */
  readStdin?: () => Promise<string>;
  maxBytes?: number;
  /** Which lockfile packages are listed once per workspace (ParseOptions.perWorkspace); all by default. */
  perWorkspace?: ParseOptions['perWorkspace'];
}

interface Candidate {
  path: string;
  /** The registry entry that claimed the file by its name; its parser is loaded when the file is read. */
  claimed?: ParserEntry;
  /** Found in the walk as a symbolic link: read only when its target is inside the scan. */
  link?: boolean;
  /** The lockfile of the workspace root above scanned folders, read for their workspaces only. */
  above?: { root: WorkspaceRoot; scope: ParseScope };
}

export async function scanPaths(paths: string[], options: ScanOptions = {}): Promise<ScanResult> {
  const parseOptions: ParseOptions = options.perWorkspace ? { perWorkspace: options.perWorkspace } : {};
  const errors: InputProblem[] = [];
  const inputs: InputResult[] = [];
  const candidates: Candidate[] = [];
  /** What the user asked to scan: the directories given, and the directories of the files given. */
  const roots: string[] = [];
  /** Workspace roots above scanned folders (`check apps/web` in a monorepo), whose lockfile the folder's tree is in. */
  const rootsAbove: WorkspaceRoot[] = [];

  for (const path of paths) {
    if (path === '-') {
      if (!options.readStdin) throw new ParseError('-', undefined, 'standard input is not available here');
      const { input } = await parseText(await options.readStdin(), '<stdin>', undefined, NO_FILES, parseOptions);
      if (input.kind === 'unknown') {
        errors.push(...input.errors);
        input.errors = [];
      }
      inputs.push(input);
      continue;
    }
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(path);
    } catch (error) {
      errors.push({ file: path, message: describeFsError(error) });
      continue;
    }
    if (info.isDirectory()) {
      roots.push(path);
      await walk(path, [], candidates, errors);
      const found = await findWorkspaceRoot(path);
      if (found.problem) errors.push(found.problem);
      if (found.root) rootsAbove.push(found.root);
    } else {
      roots.push(dirname(path));
      candidates.push({ path, claimed: entryForPath(path) });
    }
  }

  candidates.push(...lockfilesAbove(rootsAbove, candidates));
  const maxBytes = options.maxBytes ?? MAX_INPUT_BYTES;
  const files = createFileAccess(roots, maxBytes);
  const inside = insideRoots(roots);
  const together = new Map<Parser, SourceFile[]>();
  const parsed: Parsed[] = [];
  for (const candidate of candidates) {
    if (candidate.link && !(await inside(candidate.path))) {
      errors.push({
        file: candidate.path,
        message: 'symbolic link to a file outside the scanned directories; not read',
      });
      continue;
    }
    const parser = await candidate.claimed?.load();
    const read = await readTextFile(candidate.path, { maxBytes, binaryOk: parser?.binary === true });
    if ('failed' in read) {
      errors.push({ file: candidate.path, message: read.reason });
      continue;
    }
    if (parser?.parseTogether) {
      const claimed = together.get(parser);
      if (claimed) claimed.push({ path: candidate.path, text: read.text });
      else together.set(parser, [{ path: candidate.path, text: read.text }]);
      continue;
    }
    const result = candidate.above
      ? await parseAbove(read.text, candidate.path, parser, candidate.above, roots, maxBytes, parseOptions)
      : await parseText(read.text, candidate.path, parser, files, parseOptions);
    if (result.input.kind === 'unknown') errors.push(...result.input.errors);
    else if (!isQuietAndEmpty(result)) parsed.push(result);
  }
  inputs.push(...withoutSuperseded(parsed));
  for (const [parser, claimed] of together) {
    try {
      inputs.push(...((await parser.parseTogether?.(claimed, files)) ?? []));
    } catch (error) {
      errors.push(unreadable(error, claimed.map((file) => file.path).join(', ')));
    }
  }
  return { inputs, errors };
}

/** A file that may hold nothing this tool reads, and did not, is not an input. */
function isQuietAndEmpty({ input, parser }: Parsed): boolean {
  return (
    parser?.quietWhenEmpty === true &&
    input.dependencies.length === 0 &&
    input.errors.length === 0 &&
    (input.jobs?.length ?? 0) === 0
  );
}

interface Parsed {
  input: InputResult;
  parser?: Parser;
  /** False when the parser threw: such an input supersedes nothing, so nothing the user had is lost. */
  read: boolean;
  projectDirs?: string[];
}

/**
 * One lockfile per workspace root above the scan, read for every scanned folder under it, unless the walk reached it
 * already (the root was scanned too).
 */
function lockfilesAbove(found: WorkspaceRoot[], candidates: Candidate[]): Candidate[] {
  // Most scans have no workspace root above them: no need to resolve every path the walk found.
  if (found.length === 0) return [];
  const walked = new Set(candidates.map((candidate) => resolve(candidate.path)));
  const byLockfile = new Map<string, Candidate & { above: { root: WorkspaceRoot; scope: ParseScope } }>();
  for (const root of found) {
    const key = resolve(root.lockfile);
    if (walked.has(key)) continue;
    const known = byLockfile.get(key);
    if (known) known.above.scope = { within: [...known.above.scope.within, root.within] };
    else
      byLockfile.set(key, {
        path: root.lockfile,
        claimed: entryForPath(root.lockfile),
        above: { root, scope: { within: [root.within] } },
      });
  }
  return [...byLockfile.values()];
}

/**
 * A workspace root's lockfile, read for the scanned folders' workspaces. Its parser may read the root's manifests
 * (workspace names, yarn's roots): the root is inside the repository (src/workspace-root.ts stops at the git root).
 */
async function parseAbove(
  text: string,
  path: string,
  parser: Parser | undefined,
  { root, scope }: { root: WorkspaceRoot; scope: ParseScope },
  roots: string[],
  maxBytes: number,
  options: ParseOptions,
): Promise<Parsed> {
  const result = await parseText(text, path, parser, createFileAccess([...roots, root.dir], maxBytes), {
    ...options,
    scope,
  });
  if (!result.read) return result;
  const workspaces = result.projectDirs ?? [];
  result.input.workspaceRoot = { declaredIn: root.declaredIn, workspaces };
  if (workspaces.length === 0)
    result.input.errors.push({
      file: path,
      message: `lists no workspace in ${scope.within.join(', ')} though ${root.declaredIn} declares it; install again to update the lockfile (the folder's own manifests are read instead)`,
    });
  return result;
}

async function parseText(
  text: string,
  path: string,
  claimed: Parser | undefined,
  files: FileAccess,
  options: ParseOptions,
): Promise<Parsed> {
  const parser = claimed ?? (await parserForText(text));
  if (!parser) {
    const problem = {
      file: path,
      message: 'not a supported input (expected package.json, a lockfile, Terraform or a domain list)',
    };
    return { input: { file: path, kind: 'unknown', dependencies: [], errors: [problem] }, read: false };
  }
  try {
    const result = await parser.parse(text, path, files, options);
    const jobs = result.jobs ?? [];
    return {
      input: {
        file: path,
        kind: parser.kind,
        dependencies: result.dependencies,
        errors: result.errors,
        ...(jobs.length > 0 ? { jobs } : {}),
        ...(result.ownPackages?.length ? { ownPackages: result.ownPackages } : {}),
        ...(result.dependencyCount !== undefined ? { dependencyCount: result.dependencyCount } : {}),
      },
      parser,
      read: true,
      projectDirs: result.projectDirs,
    };
  } catch (error) {
    const problem = unreadable(error, path);
    return { input: { file: path, kind: parser.kind, dependencies: [], errors: [problem] }, parser, read: false };
  }
}

/**
 * A parser's failure as the input's problem. Parsers refuse input nested deeper than any real file, but should
 * some structure still run one out of stack, that file is named and the rest of the scan goes on.
 */
function unreadable(error: unknown, path: string): InputProblem {
  if (error instanceof ParseError) return { file: error.file, line: error.line, message: error.message };
  if (error instanceof RangeError && /call stack/i.test(error.message))
    return { file: path, message: 'nested too deeply to read (the reader ran out of stack); skipped' };
  throw error;
}

/** A lockfile that was read replaces the files it supersedes in each project it accounts for (no double counting). */
function withoutSuperseded(parsed: Parsed[]): InputResult[] {
  const covered = new Set<string>();
  for (const { input, parser, read, projectDirs } of parsed) {
    if (!read || !parser?.supersedes) continue;
    for (const dir of projectDirs ?? ['.'])
      for (const name of parser.supersedes) covered.add(resolve(dirname(input.file), dir, name));
  }
  // Resolved: a workspace root's lockfile is named from above (`../../pnpm-lock.yaml`), the folder's manifest not.
  return parsed.filter(({ input }) => !covered.has(resolve(input.file))).map(({ input }) => input);
}

const require = createRequire(import.meta.url);

interface IgnoreScope {
  /** How the paths under the .gitignore's folder begin (`join` normalizes: `./app/` → `app/`, `.` → ``). */
  prefix: string;
  rules: Ignore;
}

async function walk(dir: string, scopes: IgnoreScope[], out: Candidate[], errors: InputProblem[]): Promise<void> {
  const entries = await readDirectory(dir);
  if ('failed' in entries) {
    errors.push({ file: dir, message: entries.reason });
    return;
  }
  const gitignore = entries.find((entry: Dirent) => entry.isFile() && entry.name === '.gitignore');
  let active = scopes;
  if (gitignore) {
    try {
      // Loaded with the first .gitignore: a scan of a lone file or a folder without one never needs it. Required, not
      // imported: ignore is CommonJS, and an import first scans its source for named exports.
      const ignore = require('ignore') as typeof import('ignore');
      const rules = ignore().add(await readFile(join(dir, '.gitignore'), 'utf8'));
      active = [...scopes, { prefix: join(dir, '_').slice(0, -1), rules }];
    } catch (error) {
      errors.push({ file: join(dir, '.gitignore'), message: describeFsError(error) });
    }
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    const isDir = entry.isDirectory();
    if (isDir && SKIPPED_DIRS.has(entry.name)) continue;
    if (isIgnored(path, isDir, active)) continue;
    if (isDir) await walk(path, active, out, errors);
    else if (entry.isFile() || entry.isSymbolicLink()) {
      // A linked file is followed or reported, never skipped unsaid (shared provider files are often links).
      const claimed = entryForPath(path);
      if (claimed) out.push({ path, claimed, ...(entry.isSymbolicLink() ? { link: true } : {}) });
    }
  }
}

/**
 * Whether a .gitignore above `path` leaves it out. Every scope's directory is one the walk went through on its way to
 * `path`, so the path relative to it is what follows the scope's prefix (path.relative resolved both paths again for
 * every entry and every scope).
 */
function isIgnored(path: string, isDir: boolean, scopes: IgnoreScope[]): boolean {
  return scopes.some(({ prefix, rules }) => {
    const rest = path.slice(prefix.length);
    const rel = sep === '/' ? rest : rest.split(sep).join('/');
    return rel !== '' && rules.ignores(isDir ? `${rel}/` : rel);
  });
}
