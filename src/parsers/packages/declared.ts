// What every manifest and lockfile reader of the other ecosystems shares: one shape for a declared dependency, the
// project's name, and the files beside an input.
import type { Dependency, DependencyKind, Ecosystem, InputProblem } from '../../model.js';
import { besides, type FileAccess, isFailedRead } from '../types.js';

export interface Declared {
  name: string;
  version?: string;
  line?: number;
  kind?: DependencyKind;
}

/** A dependency the project declares itself: `via` is the project, then the package. */
export function declaredDependency(
  ecosystem: Ecosystem,
  root: string,
  file: string,
  { name, version, line, kind = 'prod' }: Declared,
): Dependency {
  return {
    ecosystem,
    name,
    ...(version ? { version } : {}),
    file,
    ...(line ? { line } : {}),
    direct: true,
    via: [root, name],
    kind,
  };
}

/** The directory an input sits in, as a project name for `via` chains when the file names none. */
export function projectName(path: string): string {
  const parts = path.split(/[\\/]/).filter(Boolean);
  return parts.length >= 2 ? (parts[parts.length - 2] as string) : '(root)';
}

/**
 * A file beside an input (the manifest next to a lockfile, a Compose file's `.env`), through the core's handle: its
 * text, or undefined when there is none to read. A file that is there but cannot be read is a problem worth saying.
 */
export async function readBeside(
  files: FileAccess,
  inputPath: string,
  relativePath: string,
  problems: InputProblem[],
): Promise<string | undefined> {
  const target = besides(inputPath, relativePath);
  const read = await files.read(target);
  if (!isFailedRead(read)) return read.text;
  if (read.failed === 'unreadable') problems.push({ file: target, message: `${read.reason}; read without it` });
  return undefined;
}
