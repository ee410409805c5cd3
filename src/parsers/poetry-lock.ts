// poetry.lock (https://python-poetry.org/docs/basic-usage/#installing-with-poetrylock), lock-version 1.x and 2.x:
// `[[package]]` tables with `[package.dependencies]`; Poetry 1 marks dev packages with `category`, Poetry 2 lists
// each package's `groups`. Which packages the project itself declares is in pyproject.toml next to it.
import { ParseError } from '../errors.js';
import { isRecord } from '../json-text.js';
import type { InputProblem } from '../model.js';
import { dependenciesFromGraph } from './lockfile/lock-graph.js';
import { assertNoConflictMarkers } from './lockfile/lock-text.js';
import { readBeside } from './packages/declared.js';
import { textLines } from './config/text-lines.js';
import { pythonLockGraph, type PythonPackage } from './packages/python-lock-graph.js';
import { readToml } from './config/toml.js';
import { readPyproject } from './pyproject-toml.js';
import { basename, type FileAccess, type Parser, type ParseResult } from './types.js';

const FIX = 'poetry lock rewrites a conflicted poetry.lock';

export function parsePoetryLock(text: string, path: string, pyproject?: string): ParseResult {
  assertNoConflictMarkers(text, path, FIX);
  const toml = readToml(text, path);
  if (!Array.isArray(toml.package)) throw new ParseError(path, 1, 'a poetry.lock lists [[package]] tables; none found');
  const lines = textLines(text);
  const errors: InputProblem[] = [];
  const packages: PythonPackage[] = [];
  let from = 0;
  for (const entry of toml.package as unknown[]) {
    const at = lines.offset('[[package]]', from);
    from = at >= 0 ? at + 1 : from;
    const line = at >= 0 ? lines.lineAt(at) + 1 : undefined;
    if (!isRecord(entry) || typeof entry.name !== 'string') {
      errors.push({ file: path, line, message: '[[package]] without a name; skipped' });
      continue;
    }
    const edges = Object.entries(isRecord(entry.dependencies) ? entry.dependencies : {}).map(([name, spec]) => ({
      name,
      type: isRecord(spec) && spec.optional === true ? ('optional' as const) : ('prod' as const),
    }));
    const groups = Array.isArray(entry.groups) ? entry.groups : undefined;
    const dev = entry.category === 'dev' || (groups !== undefined && !groups.includes('main'));
    packages.push({
      id: `${entry.name}@${typeof entry.version === 'string' ? entry.version : ''}`,
      name: entry.name,
      ...(typeof entry.version === 'string' ? { version: entry.version } : {}),
      ...(line ? { line } : {}),
      edges,
      ...(dev ? { kind: 'dev' as const } : entry.optional === true ? { kind: 'optional' as const } : {}),
      // A path dependency is a folder of this repository: what it declares is the project's own.
      ...(isRecord(entry.source) && entry.source.type === 'directory' ? { ours: true } : {}),
    });
  }
  const roots = [];
  if (pyproject !== undefined) {
    try {
      const project = readPyproject(pyproject, path.replace(/[^\\/]*$/, 'pyproject.toml'));
      const edges = project.declarations.map((declaration) => ({
        name: declaration.name,
        type:
          declaration.kind === 'dev'
            ? ('dev' as const)
            : declaration.kind === 'optional'
              ? ('optional' as const)
              : ('prod' as const),
      }));
      roots.push({ id: '\u0000root', name: project.root, edges });
    } catch (error) {
      if (!(error instanceof ParseError)) throw error;
      errors.push({ file: error.file, line: error.line, message: `${error.message}; direct dependencies are guessed` });
    }
  }
  // Without recorded groups (Poetry 1.2–1.8), kinds come from the graph: what only dev declarations reach is dev.
  return { ...dependenciesFromGraph(pythonLockGraph(packages, roots), path, 'pypi'), errors };
}

/** As the scan reads it: with the pyproject.toml beside it, which says what the project declares. */
async function parsePoetryLockInProject(text: string, path: string, files: FileAccess): Promise<ParseResult> {
  const problems: InputProblem[] = [];
  const result = parsePoetryLock(text, path, await readBeside(files, path, 'pyproject.toml', problems));
  return { ...result, errors: [...problems, ...result.errors] };
}

export const poetryLockParser: Parser = {
  kind: 'poetry.lock',
  matches: (path) => basename(path) === 'poetry.lock',
  sniff: (text) => /^\[\[package\]\]/m.test(text) && /^(content-hash|lock-version) = /m.test(text),
  parse: parsePoetryLockInProject,
  supersedes: ['pyproject.toml'],
};
