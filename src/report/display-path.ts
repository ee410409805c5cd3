// Where the human-facing reports say a file is: relative to the folder that was scanned, so `check /srv/app` and
// `check .` inside it point at the same `pnpm-lock.yaml:120`. The JSON keeps paths as the scan named them.
import { statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

/** The deepest folder holding every scanned path (a file counts as its folder); the working folder for stdin alone. */
export function scannedRoot(paths: readonly string[], cwd = process.cwd()): string {
  const folders = paths
    .filter((path) => path !== '-')
    .map((path) => {
      const full = resolve(cwd, path);
      try {
        return statSync(full).isDirectory() ? full : dirname(full);
      } catch {
        return dirname(full);
      }
    });
  if (folders.length === 0) return resolve(cwd);
  return folders.reduce(commonFolder);
}

function commonFolder(a: string, b: string): string {
  const left = a.split(sep);
  const right = b.split(sep);
  let same = 0;
  while (same < left.length && same < right.length && left[same] === right[same]) same++;
  return left.slice(0, same).join(sep) || sep;
}

export interface PathDisplay {
  /** The scanned folder as the reader typed it (relative to the working folder when inside it); empty for `.`. */
  root: string;
  /** A file as the reports show it: relative to the scanned folder, `/` separated; names like `<stdin>` unchanged. */
  show(file: string): string;
}

export function pathDisplay(root: string | undefined, cwd = process.cwd()): PathDisplay {
  if (root === undefined) return { root: '', show: (file) => file };
  const fromCwd = relative(cwd, root);
  const shownRoot = fromCwd === '' ? '' : fromCwd.startsWith('..') || isAbsolute(fromCwd) ? root : fromCwd;
  return {
    root: shownRoot.split(sep).join('/'),
    show(file) {
      if (file.startsWith('<')) return file;
      const shown = relative(root, resolve(cwd, file));
      return shown === '' ? file : shown.split(sep).join('/');
    },
  };
}
