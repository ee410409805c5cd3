// `--output FILE`: a report written whole or not at all. A regular file is replaced atomically (through a symbolic
// link, to the file it names); anything else that is already there — a character device, a named pipe, the
// process's own standard output — is written through, never replaced by a regular file.
import { realpath, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { UsageError } from './errors.js';
import { writeFileAtomic } from './fs-atomic.js';

/** Names of the process's own standard output: written to it directly (it may be a socket, which cannot be opened). */
const STDOUT_NAMES = new Set(['/dev/stdout', '/dev/fd/1', '/proc/self/fd/1']);

const REASONS: Record<string, string> = {
  ENOENT: 'its directory does not exist',
  ENOTDIR: 'part of its path is a file, not a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EISDIR: 'it is a directory',
  ENXIO: 'it is a socket, not a file',
};

export async function writeOutput(path: string, text: string, stdout: (text: string) => void): Promise<void> {
  if (STDOUT_NAMES.has(path)) {
    stdout(text);
    return;
  }
  const info = await stat(path).catch(() => undefined);
  if (info?.isDirectory()) throw new UsageError(`--output ${path}: it is a directory; name a file`);
  try {
    if (info && !info.isFile()) await writeFile(path, text, { flag: 'w' });
    else await writeFileAtomic(info ? await realpath(path) : path, text);
  } catch (error) {
    const reason = REASONS[(error as NodeJS.ErrnoException).code ?? ''];
    if (!reason) throw error;
    const where = reason === REASONS.ENOENT ? ` (${dirname(path)})` : '';
    throw new UsageError(`--output ${path}: cannot write the report: ${reason}${where}`);
  }
}
