// The core's file side: walks paths, reads files (with size and binary checks), and hands text to the parsers.
import { open, readdir, readFile, stat } from 'node:fs/promises';
import type { Dirent } from 'node:fs';
import { dirname, join, normalize, relative, resolve, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { ParseError } from './errors.js';
import type { InputProblem, InputResult } from './model.js';
import { parserForPath, parserForText } from './parsers/index.js';
import { isSetParser, type ParseContext, type Parser, type SetParser, type SourceFile } from './parsers/types.js';

/** Lockfiles of large monorepos reach tens of MB; past this a file is reported, not read. */
export const MAX_INPUT_BYTES = 128 * 1024 * 1024;
const SKIPPED_DIRS = new Set(['node_modules', '.git', '.hg', '.svn', '.terraform', '.yarn', '.pnpm-store']);

export interface ScanResult {
  inputs: InputResult[];
  /** Paths that could not be read at all (missing, unreadable, binary, too large, unsupported). */
  errors: InputProblem[];
}

export interface ScanOptions {
  /** Reads standard input when a path is `-`; injected so the core never touches `process`. */
  readStdin?: () => Promise<string>;
  maxBytes?: number;
}

interface Candidate {
  path: string;
  parser?: Parser;
}

export async function scanPaths(paths: string[], options: ScanOptions = {}): Promise<ScanResult> {
  const errors: InputProblem[] = [];
  const inputs: InputResult[] = [];
  const candidates: Candidate[] = [];

  for (const path of paths) {
    if (path === '-') {
      if (!options.readStdin) throw new ParseError('-', undefined, 'standard input is not available here');
      const { input } = await parseText(await options.readStdin(), '<stdin>', undefined, NO_FILES);
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
    if (info.isDirectory()) await walk(path, [], candidates, errors);
    else candidates.push({ path, parser: parserForPath(path) });
  }

  const maxBytes = options.maxBytes ?? MAX_INPUT_BYTES;
  const sets = new Map<SetParser, Map<string, SourceFile[]>>();
  const parsed: Parsed[] = [];
  for (const candidate of candidates) {
    const text = await readInput(candidate.path, maxBytes, errors, candidate.parser?.binary === true);
    if (text === undefined) continue;
    if (candidate.parser && isSetParser(candidate.parser)) {
      addToSet(sets, candidate.parser, { path: candidate.path, text });
      continue;
    }
    const result = await parseText(
      text,
      candidate.path,
      candidate.parser,
      relatedFiles(candidate.path, maxBytes, errors),
    );
    if (result.input.kind === 'unknown') errors.push(...result.input.errors);
    else if (!isQuietAndEmpty(result)) parsed.push(result);
  }
  inputs.push(...withoutSuperseded(parsed));
  for (const [parser, byDir] of sets) {
    const directories = [...byDir].map(([dir, files]) => ({ dir, files }));
    inputs.push(
      ...(await parser.parseSet(directories, { readDirectory: (dir) => readClaimed(dir, parser, maxBytes, errors) })),
    );
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

/** Set parsers (Terraform) read a directory as one unit, so their files are grouped by directory. */
function addToSet(sets: Map<SetParser, Map<string, SourceFile[]>>, parser: SetParser, file: SourceFile): void {
  let byDir = sets.get(parser);
  if (!byDir) sets.set(parser, (byDir = new Map()));
  const dir = dirname(file.path);
  const files = byDir.get(dir);
  if (files) files.push(file);
  else byDir.set(dir, [file]);
}

/** A directory a set parser asks for (a local module outside the scan): the files it claims there. */
async function readClaimed(
  dir: string,
  parser: Parser,
  maxBytes: number,
  errors: InputProblem[],
): Promise<SourceFile[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    throw new ParseError(dir, undefined, describeFsError(error));
  }
  const files: SourceFile[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (!entry.isFile() || !parser.matches(path)) continue;
    const text = await readInput(path, maxBytes, errors, false);
    if (text !== undefined) files.push({ path, text });
  }
  return files;
}

interface Parsed {
  input: InputResult;
  parser?: Parser;
  /** False when the parser threw: such an input supersedes nothing, so nothing the user had is lost. */
  read: boolean;
  projectDirs?: string[];
}

async function parseText(
  text: string,
  path: string,
  claimed: Parser | undefined,
  context: ParseContext,
): Promise<Parsed> {
  const parser = claimed ?? parserForText(text);
  if (!parser) {
    const problem = {
      file: path,
      message: 'not a supported input (expected package.json, a lockfile, Terraform or a domain list)',
    };
    return { input: { file: path, kind: 'unknown', dependencies: [], errors: [problem] }, read: false };
  }
  try {
    const result = parser.parseAsync ? await parser.parseAsync(text, path, context) : parser.parse(text, path);
    const jobs = result.jobs ?? [];
    return {
      input: {
        file: path,
        kind: parser.kind,
        dependencies: result.dependencies,
        errors: result.errors,
        ...(jobs.length > 0 ? { jobs } : {}),
      },
      parser,
      read: true,
      projectDirs: result.projectDirs,
    };
  } catch (error) {
    if (!(error instanceof ParseError)) throw error;
    return {
      input: {
        file: path,
        kind: parser.kind,
        dependencies: [],
        errors: [{ file: error.file, line: error.line, message: error.message }],
      },
      parser,
      read: false,
    };
  }
}

/** A lockfile that was read replaces the files it supersedes in each project it accounts for (no double counting). */
function withoutSuperseded(parsed: Parsed[]): InputResult[] {
  const covered = new Set<string>();
  for (const { input, parser, read, projectDirs } of parsed) {
    if (!read || !parser?.supersedes) continue;
    for (const dir of projectDirs ?? ['.'])
      for (const name of parser.supersedes) covered.add(normalize(join(dirname(input.file), dir, name)));
  }
  return parsed.filter(({ input }) => !covered.has(normalize(input.file))).map(({ input }) => input);
}

const NO_FILES: ParseContext = { readRelated: async () => undefined, listDirs: async () => [] };

/** Files next to an input, for parsers that need the project's manifests; never outside the input's directory. */
function relatedFiles(path: string, maxBytes: number, errors: InputProblem[]): ParseContext {
  const base = resolve(dirname(path));
  const inside = (relativePath: string) => {
    const target = resolve(base, relativePath);
    return target === base ||
      (target.startsWith(base + sep) && !relative(base, target).split(sep).includes('node_modules'))
      ? target
      : undefined;
  };
  return {
    async readRelated(relativePath) {
      const target = inside(relativePath);
      if (!target) return undefined;
      try {
        const info = await stat(target);
        if (!info.isFile() || info.size > maxBytes) return undefined;
        return await readFile(target, 'utf8');
      } catch (error) {
        if (!isMissing(error)) errors.push({ file: target, message: describeFsError(error) });
        return undefined;
      }
    },
    async listDirs(relativePath) {
      const target = inside(relativePath);
      if (!target) return [];
      try {
        const entries = await readdir(target, { withFileTypes: true });
        return entries
          .filter((entry) => entry.isDirectory() && !SKIPPED_DIRS.has(entry.name))
          .map((entry) => entry.name);
      } catch (error) {
        if (!isMissing(error)) errors.push({ file: target, message: describeFsError(error) });
        return [];
      }
    },
  };
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

async function readInput(
  path: string,
  maxBytes: number,
  errors: InputProblem[],
  binaryOk: boolean,
): Promise<string | undefined> {
  try {
    const info = await stat(path);
    if (info.size > maxBytes) {
      errors.push({
        file: path,
        message: `file is too large to scan (${formatBytes(info.size)}; the limit is ${formatBytes(maxBytes)})`,
      });
      return undefined;
    }
    if (binaryOk) return '';
    if (await looksBinary(path)) {
      errors.push({ file: path, message: 'binary file, not a text input; skipped' });
      return undefined;
    }
    return await readFile(path, 'utf8');
  } catch (error) {
    errors.push({ file: path, message: describeFsError(error) });
    return undefined;
  }
}

async function looksBinary(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(8192);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).includes(0);
  } finally {
    await handle.close();
  }
}

interface IgnoreScope {
  dir: string;
  rules: Ignore;
}

async function walk(dir: string, scopes: IgnoreScope[], out: Candidate[], errors: InputProblem[]): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    errors.push({ file: dir, message: describeFsError(error) });
    return;
  }
  const gitignore = entries.find((entry) => entry.isFile() && entry.name === '.gitignore');
  let active = scopes;
  if (gitignore) {
    try {
      active = [...scopes, { dir, rules: ignore().add(await readFile(join(dir, '.gitignore'), 'utf8')) }];
    } catch (error) {
      errors.push({ file: join(dir, '.gitignore'), message: describeFsError(error) });
    }
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    const isDir = entry.isDirectory();
    if (isDir && SKIPPED_DIRS.has(entry.name)) continue;
    if (isIgnored(path, isDir, active)) continue;
    if (isDir) await walk(path, active, out, errors);
    else if (entry.isFile()) {
      const parser = parserForPath(path);
      if (parser) out.push({ path, parser });
    }
  }
}

function isIgnored(path: string, isDir: boolean, scopes: IgnoreScope[]): boolean {
  return scopes.some(({ dir, rules }) => {
    const rel = relative(dir, path).split(sep).join('/');
    return rel !== '' && !rel.startsWith('..') && rules.ignores(isDir ? `${rel}/` : rel);
  });
}

function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'is a directory';
  return (error as Error).message;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 ** 2) return `${Math.round(bytes / 1024 ** 2)} MB`;
  return `${Math.round(bytes / 1024)} KB`;
}
