// Reading a fetched archive straight from its bare git mirror: the files at a pinned commit, and every version a file
// ever had (the archives that scrape a status page commit one version per poll). Large blobs may be absent from a
// mirror (the fetch tool leaves out files of 4 MiB and more); they are counted and skipped, never guessed.
import { execFileSync, spawn } from 'node:child_process';

export function git(gitDir, args) {
  return execFileSync('git', [`--git-dir=${gitDir}`, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
}

/** The commit a ref points at, or undefined when the mirror lacks it. */
export function resolveCommit(gitDir, ref) {
  try {
    return git(gitDir, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Paths under `dir` at `commit`, sorted. */
export function listFiles(gitDir, commit, dir) {
  return git(gitDir, ['ls-tree', '-r', '--name-only', commit, '--', dir]).split('\n').filter(Boolean).sort();
}

/**
 * Every version of `path` reachable from `commit`, newest first: `{commit, date, blob}` (date: ISO committer date).
 * A version equal to the one after it is listed once.
 */
export function fileVersions(gitDir, commit, path) {
  const out = git(gitDir, ['log', '--format=%x00%H %cI', '--raw', '--no-abbrev', commit, '--', path]);
  const versions = [];
  for (const chunk of out.split('\0').filter(Boolean)) {
    const [head, ...rest] = chunk.split('\n');
    const [hash, date] = head.split(' ');
    const raw = rest.find((line) => line.startsWith(':'));
    const blob = raw?.split(/\s+/)[3];
    if (!blob || /^0+$/.test(blob)) continue;
    if (versions.at(-1)?.blob === blob) continue;
    versions.push({ commit: hash, date, blob });
  }
  return versions;
}

/** The contents of `objects` (blob ids or `commit:path`), in order; a missing object is undefined. */
export function readObjects(gitDir, objects) {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [`--git-dir=${gitDir}`, 'cat-file', '--batch'], { stdio: ['pipe', 'pipe', 'inherit'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`git cat-file exited with ${code}`));
      const buffer = Buffer.concat(chunks);
      const results = [];
      let pos = 0;
      while (pos < buffer.length) {
        const newline = buffer.indexOf(10, pos);
        const header = buffer.subarray(pos, newline).toString('utf8').split(' ');
        if (header[1] === 'missing') {
          results.push(undefined);
          pos = newline + 1;
          continue;
        }
        const size = Number(header[2]);
        results.push(buffer.subarray(newline + 1, newline + 1 + size).toString('utf8'));
        pos = newline + 1 + size + 1;
      }
      resolve(results);
    });
    child.stdin.end(`${objects.join('\n')}\n`);
  });
}
