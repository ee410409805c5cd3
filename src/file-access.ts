// The core's file reads: one reader for every text the scan takes (inputs and the files parsers ask for), with
// the same limits and the same reasons, and the one rule for what a parser may read (see FileAccess).
//
// The calls underneath are synchronous behind async signatures: the scan reads one file at a time, and each async
// call is a round trip through libuv's thread pool (stat, open, fstat, read, close: five per file), which on a busy
// two-core machine left a 600-file Terraform tree's scan waiting more than it worked (0.5 s of 1.3 s idle).
import {
  closeSync,
  constants,
  type Dirent,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  type Stats,
  statSync,
} from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { FailedRead, FileAccess, LeaveTree } from './parsers/types.js';
import { byName } from './text-order.js';

/** Lockfiles of large monorepos reach tens of MB; past this a file is reported, not read. */
export const MAX_INPUT_BYTES = 128 * 1024 * 1024;

/** Directories the walk never enters, and parsers may not read into without a named reason. */
export const SKIPPED_DIRS = new Set(['node_modules', '.git', '.hg', '.svn', '.terraform', '.yarn', '.pnpm-store']);

export interface ReadOptions {
  maxBytes?: number;
  /** A binary format its parser handles itself: the text is '' and the content is not checked. */
  binaryOk?: boolean;
}

/**
 * The text of a regular file, or why not. Named pipes, devices and directories are refused before they are opened
 * (a FIFO would block the scan); size is checked before reading, and a NUL byte in the first 8 KB means binary.
 */
export async function readTextFile(path: string, options: ReadOptions = {}): Promise<{ text: string } | FailedRead> {
  const maxBytes = options.maxBytes ?? MAX_INPUT_BYTES;
  try {
    const refused = refusedFile(statSync(path), maxBytes);
    if (refused) return refused;
    if (options.binaryOk) return { text: '' };
    // Non-blocking, so a file swapped for a pipe after the check above cannot hang the open; checked again on it.
    const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    try {
      const again = refusedFile(fstatSync(fd), maxBytes);
      if (again) return again;
      const buffer = readFileSync(fd);
      if (buffer.subarray(0, 8192).includes(0))
        return { failed: 'unreadable', reason: 'binary file, not a text input; skipped' };
      return { text: buffer.toString('utf8') };
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && isSymbolicLink(path))
      return { failed: 'missing', reason: 'symbolic link to a file that does not exist; not read' };
    return fsFailure(error);
  }
}

/** Why a file is not read as an input: not a regular file, or past the size limit. */
function refusedFile(info: Stats, maxBytes: number): FailedRead | undefined {
  if (!info.isFile()) return { failed: 'unreadable', reason: notAFile(info) };
  if (info.size > maxBytes)
    return {
      failed: 'unreadable',
      reason: `file is too large to scan (${formatBytes(info.size)}; the limit is ${formatBytes(maxBytes)})`,
    };
  return undefined;
}

function isSymbolicLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Entries of a directory, sorted by name, or why not. */
export async function readDirectory(dir: string): Promise<Dirent[] | FailedRead> {
  try {
    const entries = readdirSync(dir, { withFileTypes: true });
    return entries.sort((a, b) => byName(a.name, b.name));
  } catch (error) {
    return fsFailure(error);
  }
}

/**
 * The handle parsers read through. Inside: a path under one of `roots` (the directories scanned, and the
 * directories of files named on the command line) that passes through none of SKIPPED_DIRS, symbolic links
 * followed (a link in the tree that points out of it leads outside). Anything else is read only when the parser
 * names a LeaveTree reason.
 */
export function createFileAccess(roots: string[], maxBytes = MAX_INPUT_BYTES): FileAccess {
  const inside = insideRoots(roots);
  const refusal = async (path: string, leave: LeaveTree | undefined): Promise<FailedRead | undefined> => {
    if (leave || (await inside(path))) return undefined;
    return { failed: 'outside', reason: 'outside the scanned directories; not read' };
  };
  return {
    async read(path, leave) {
      return (await refusal(path, leave)) ?? readTextFile(path, { maxBytes });
    },
    async list(dir, leave) {
      const refused = await refusal(dir, leave);
      if (refused) return refused;
      const entries = await readDirectory(dir);
      if ('failed' in entries) return entries;
      return {
        // A symbolic link is listed like a file: reading it follows it under the rule above, or says why not.
        files: entries.filter((entry) => entry.isFile() || entry.isSymbolicLink()).map((entry) => entry.name),
        dirs: entries
          .filter((entry) => entry.isDirectory() && !SKIPPED_DIRS.has(entry.name))
          .map((entry) => entry.name),
      };
    },
  };
}

/**
 * The one rule for what is inside the scan: the path, symbolic links followed, lies under one of `roots` and passes
 * through none of SKIPPED_DIRS.
 */
export function insideRoots(roots: string[]): (path: string) => Promise<boolean> {
  const realRoots = Promise.all([...new Set(roots.map((root) => resolve(root)))].map(realpathOfExisting));
  return async (path) => {
    const target = await realpathOfExisting(resolve(path));
    return (await realRoots).some((root) => {
      const rel = relative(root, target);
      if (rel === '') return true;
      if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return false;
      return !rel.split(sep).some((segment) => SKIPPED_DIRS.has(segment));
    });
  };
}

/** The real path of the deepest existing ancestor, with the rest appended (for paths that do not exist). */
export async function realpathOfExisting(path: string): Promise<string> {
  const rest: string[] = [];
  for (let current = path; ; current = dirname(current)) {
    try {
      return join(realpathSync.native(current), ...rest.reverse());
    } catch {
      if (dirname(current) === current) return path;
      rest.push(basename(current));
    }
  }
}

export function fsFailure(error: unknown): FailedRead {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return { failed: 'missing', reason: 'no such file or directory' };
  return { failed: 'unreadable', reason: describeFsError(error) };
}

export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'is a directory';
  if (code === 'ELOOP') return 'too many levels of symbolic links';
  return (error as Error).message;
}

function notAFile(info: Stats): string {
  if (info.isDirectory()) return 'is a directory';
  if (info.isFIFO()) return 'is a named pipe, not a file; pipe it to standard input instead ("-")';
  if (info.isSocket()) return 'is a socket, not a file';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'is a device, not a file';
  return 'not a regular file';
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 ** 2) return `${Math.round(bytes / 1024 ** 2)} MB`;
  return `${Math.round(bytes / 1024)} KB`;
}
