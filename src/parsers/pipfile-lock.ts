// Pipfile.lock (https://pipenv.pypa.io/en/latest/pipfile.html): JSON with every installed package pinned under
// `default` and `develop`, and no graph. What the project declares itself is in the Pipfile next to it.
import { ParseError } from '../errors.js';
import { isRecord, lineOfKey, parseJsonText } from '../json-text.js';
import type { Dependency, InputProblem } from '../model.js';
import { assertNoConflictMarkers } from './lockfile/lock-text.js';
import { textLines } from './config/text-lines.js';
import { projectName, readBeside } from './packages/declared.js';
import { normalizePythonName } from './packages/pep508.js';
import { readToml, tableAt } from './config/toml.js';
import { basename, type FileAccess, type Parser, type ParseResult } from './types.js';

export function parsePipfileLock(text: string, path: string, pipfile?: string): ParseResult {
  assertNoConflictMarkers(text, path, 'pipenv lock rewrites a conflicted Pipfile.lock');
  const lock = parseJsonText(text, path);
  if (!isRecord(lock) || !(isRecord(lock.default) || isRecord(lock.develop)))
    throw new ParseError(path, 1, 'a Pipfile.lock holds "default" and "develop" package maps; neither found');
  const errors: InputProblem[] = [];
  const declared = pipfile === undefined ? undefined : declaredNames(pipfile, path, errors);
  const root = projectName(path);
  const lines = textLines(text);
  const dependencies: Dependency[] = [];
  for (const section of ['default', 'develop'] as const) {
    const packages = lock[section];
    if (packages === undefined) continue;
    const sectionOffset = text.indexOf(`"${section}"`);
    if (!isRecord(packages)) {
      errors.push({ file: path, line: lineOfKey(text, section), message: `"${section}" must be an object; skipped` });
      continue;
    }
    // Packages are read in the order they are written, so each search starts where the last one ended.
    let cursor = Math.max(0, sectionOffset);
    for (const [name, spec] of Object.entries(packages)) {
      const at = lines.offset(`${JSON.stringify(name)}:`, cursor);
      if (at >= 0) cursor = at + 1;
      const line = at >= 0 ? lines.lineAt(at) : undefined;
      if (section === 'develop' && isRecord(lock.default) && Object.hasOwn(lock.default, name)) continue;
      const version = isRecord(spec) && typeof spec.version === 'string' ? spec.version.replace(/^==/, '') : undefined;
      const direct = declared ? declared.has(normalizePythonName(name)) : true;
      dependencies.push({
        ecosystem: 'pypi',
        name,
        ...(version ? { version } : {}),
        file: path,
        ...(line ? { line } : {}),
        direct,
        // Pipfile.lock records no graph: a package the Pipfile does not declare came through one that it does.
        via: direct ? [root, name] : [root, '(a declared package)', name],
        kind: section === 'develop' ? 'dev' : 'prod',
      });
    }
  }
  return { dependencies, errors };
}

function declaredNames(pipfile: string, path: string, errors: InputProblem[]): Set<string> | undefined {
  try {
    const toml = readToml(pipfile, path.replace(/[^\\/]*$/, 'Pipfile'));
    const names = [
      ...Object.keys(tableAt(toml, 'packages') ?? {}),
      ...Object.keys(tableAt(toml, 'dev-packages') ?? {}),
    ];
    return new Set(names.map(normalizePythonName));
  } catch (error) {
    if (!(error instanceof ParseError)) throw error;
    errors.push({
      file: error.file,
      line: error.line,
      message: `${error.message}; every locked package counted as declared`,
    });
    return undefined;
  }
}

/** As the scan reads it: with the Pipfile beside it, which says what the project declares. */
async function parsePipfileLockInProject(text: string, path: string, files: FileAccess): Promise<ParseResult> {
  const problems: InputProblem[] = [];
  const result = parsePipfileLock(text, path, await readBeside(files, path, 'Pipfile', problems));
  return { ...result, errors: [...problems, ...result.errors] };
}

export const pipfileLockParser: Parser = {
  kind: 'Pipfile.lock',
  matches: (path) => basename(path) === 'Pipfile.lock',
  sniff: (text) => /^\s*\{/.test(text) && /"_meta"\s*:/.test(text) && /"pipfile-spec"\s*:/.test(text),
  parse: parsePipfileLockInProject,
};
