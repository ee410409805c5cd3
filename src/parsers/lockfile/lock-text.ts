// Checks shared by every lockfile reader, run before the format's own parsing.
import { ParseError, lineAt } from '../../errors.js';

const CONFLICT = /^(<{7}|>{7})(?: |$)/m;

/** A lockfile left mid-merge is not guessed at: the user resolves it with their package manager. */
export function assertNoConflictMarkers(text: string, path: string, fix: string): void {
  // A cheap indexOf first: the regular expression only runs on files that hold a candidate at all.
  if (!text.includes('<<<<<<<') && !text.includes('>>>>>>>')) return;
  const hit = CONFLICT.exec(text);
  if (hit)
    throw new ParseError(
      path,
      lineAt(text, hit.index),
      `merge conflict marker "${hit[1]}": resolve the conflict first (${fix})`,
    );
}

/** The directory a path sits in, for naming a project without a name. */
export function dirName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts.length >= 2 ? (parts[parts.length - 2] as string) || '(root)' : '(root)';
}
