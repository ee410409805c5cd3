// requirements files (https://pip.pypa.io/en/stable/reference/requirements-file-format/): one PEP 508 requirement a
// line, with options (`-r`, `-c`, `-e`, `--hash`), comments, line continuations and environment markers. pip-compile
// output names each package's dependants in `# via` comments, which give the chains and what is direct.
import type { Dependency, InputProblem } from '../model.js';
import { assertNoConflictMarkers } from './lockfile/lock-text.js';
import { normalizePythonName, parseRequirement } from './packages/pep508.js';
import { normalize } from 'node:path/posix';
import { basename, besides, type FileAccess, isFailedRead, type Parser, type ParseResult } from './types.js';

interface Entry {
  name: string;
  version?: string;
  line: number;
  /** Packages and `-r file` lines pip-compile names in `# via`; empty when the file has none. */
  via: string[];
}

/** An option line that names no package: `--index-url …`, `-c constraints.txt`, `--hash=…`. */
const OPTION = /^(-[a-zA-Z]|--[a-z][a-z-]*)(\s|=|$)/;
const INCLUDE = /^(-r|--requirement)(?:\s+|=)(\S+)/;
const EDITABLE = /^(-e|--editable)(?:\s+|=)(\S+)/;

export interface RequirementsText {
  dependencies: Dependency[];
  errors: InputProblem[];
  /** Files named by `-r` lines, relative to this file's directory. */
  includes: Array<{ path: string; line: number }>;
}

export function readRequirements(text: string, path: string): RequirementsText {
  assertNoConflictMarkers(text, path, 'then pip-compile again, if the file is generated');
  const errors: InputProblem[] = [];
  const includes: RequirementsText['includes'] = [];
  const entries: Entry[] = [];
  const lines = text.split(/\r?\n/);
  let current: Entry | undefined;
  let inVia = false;
  for (let index = 0; index < lines.length; index++) {
    const start = index;
    let raw = lines[index] as string;
    // A trailing backslash continues the line (hashes are written that way); comments end at " #".
    while (raw.endsWith('\\') && index + 1 < lines.length) raw = `${raw.slice(0, -1)} ${lines[++index]}`;
    const comment = /(^|\s)#(.*)$/.exec(raw);
    const body = (comment ? raw.slice(0, comment.index) : raw).trim();
    if (!body) {
      if (comment && current) inVia = readVia(comment[2] as string, current, inVia);
      continue;
    }
    inVia = false;
    current = undefined;
    const include = INCLUDE.exec(body);
    if (include) {
      includes.push({ path: include[2] as string, line: start + 1 });
      continue;
    }
    const editable = EDITABLE.exec(body);
    const requirementText = editable ? eggName(editable[2] as string) : OPTION.test(body) ? undefined : body;
    if (editable && !requirementText) continue;
    if (requirementText === undefined) continue;
    // A URL or path alone (`https://…/pkg.whl`, `./vendor/pkg`) names no distribution pip can look up by name.
    if (/^(\.{0,2}\/|[a-z+]+:\/\/)/i.test(requirementText)) continue;
    const requirement = parseRequirement(requirementText.replace(/\s--hash[=\s]\S+/g, ''));
    if (!requirement) {
      errors.push({ file: path, line: start + 1, message: `not a requirement: "${body.slice(0, 80)}"; skipped` });
      continue;
    }
    current = { ...requirement, line: start + 1, via: [] };
    entries.push(current);
    if (comment) inVia = readVia(comment[2] as string, current, false);
  }
  return { dependencies: toDependencies(entries, path), errors, includes };
}

/** `# via boto3`, or `# via` followed by `#   boto3` lines (pip-compile's two layouts). */
function readVia(comment: string, entry: Entry, inVia: boolean): boolean {
  const text = comment.trim();
  const inline = /^via\s+(.+)$/.exec(text);
  if (inline) {
    entry.via.push((inline[1] as string).trim());
    return false;
  }
  if (text === 'via') return true;
  if (inVia && text) {
    entry.via.push(text);
    return true;
  }
  return false;
}

/** `git+https://…#egg=acme-lib` → `acme-lib`; a local path names no published package. */
function eggName(target: string): string | undefined {
  return /[#&]egg=([A-Za-z0-9._-]+)/.exec(target)?.[1];
}

/** With `# via` comments, a package is direct when a requirements file (`-r …`) names it; chains follow the rest. */
function toDependencies(entries: Entry[], path: string): Dependency[] {
  const root = basename(path);
  const compiled = entries.some((entry) => entry.via.length > 0);
  const byName = new Map(entries.map((entry) => [normalizePythonName(entry.name), entry]));
  const isRoot = (via: string) => via.startsWith('-r ') || via.startsWith('-c ') || via.includes('.in');
  const chainOf = (entry: Entry): string[] => {
    const chain = [entry.name];
    const seen = new Set([normalizePythonName(entry.name)]);
    let node: Entry | undefined = entry;
    while (node && node.via.length > 0 && !node.via.some(isRoot)) {
      const parent = byName.get(normalizePythonName(node.via[0] as string));
      if (!parent || seen.has(normalizePythonName(parent.name))) break;
      seen.add(normalizePythonName(parent.name));
      chain.unshift(parent.name);
      node = parent;
    }
    return [root, ...chain];
  };
  return entries.map((entry) => {
    const direct = !compiled || entry.via.length === 0 || entry.via.some(isRoot);
    return {
      ecosystem: 'pypi',
      name: entry.name,
      ...(entry.version ? { version: entry.version } : {}),
      file: path,
      line: entry.line,
      direct,
      via: direct ? [root, entry.name] : chainOf(entry),
      kind: /(^|[-_./])(dev|test|tests|testing|lint|docs)([-_.]|$)/i.test(basename(path)) ? 'dev' : 'prod',
    };
  });
}

export function parseRequirementsTxt(text: string, path: string): ParseResult {
  const { dependencies, errors } = readRequirements(text, path);
  return { dependencies, errors };
}

/**
 * `-r other.txt` lines are followed when the scan would not read that file on its own (a name this parser does not
 * claim), so a dependency is counted once; cycles and depth are bounded. Reads go through the core's handle.
 */
async function parseRequirementsInProject(text: string, path: string, files: FileAccess): Promise<ParseResult> {
  const first = readRequirements(text, path);
  const dependencies = [...first.dependencies];
  const errors = [...first.errors];
  const seen = new Set<string>([normalize(path)]);
  const queue = first.includes.map((include) => ({ ...include, from: path, depth: 1 }));
  while (queue.length > 0) {
    const include = queue.shift() as (typeof queue)[number];
    const target = normalize(besides(include.from, include.path));
    if (seen.has(target) || requirementsTxtParser.matches(target) || include.depth > 8) continue;
    seen.add(target);
    const included = await files.read(target);
    if (isFailedRead(included)) {
      errors.push({
        file: include.from,
        line: include.line,
        message: `-r ${include.path}: ${included.reason}; skipped`,
      });
      continue;
    }
    const read = readRequirements(included.text, target);
    dependencies.push(
      ...read.dependencies.map((dependency) => ({ ...dependency, via: [basename(path), ...dependency.via] })),
    );
    errors.push(...read.errors);
    queue.push(...read.includes.map((next) => ({ ...next, from: target, depth: include.depth + 1 })));
  }
  return { dependencies, errors };
}

export const requirementsTxtParser: Parser = {
  kind: 'requirements.txt',
  matches: (path) => {
    const name = basename(path);
    return (
      /^(.+[-_.])?requirements([-_.].+)?\.(txt|in)$/i.test(name) ||
      (/\.(txt|in)$/i.test(name) && /(^|[\\/])requirements[\\/][^\\/]+$/i.test(path))
    );
  },
  sniff: (text) => {
    const lines = text.split(/\r?\n/).filter((line) => line.trim() && !line.trim().startsWith('#'));
    return (
      lines.length > 0 &&
      lines.some((line) => /[=<>~!]=|^-r\s/.test(line)) &&
      lines.every((line) =>
        /^\s*(-[a-z-]+[\s=]\S|[A-Za-z0-9][\w.-]*\s*(\[[^\]]*\])?\s*([=<>~!]=|[<>]|;|@|$)|--hash)/i.test(line),
      )
    );
  },
  parse: parseRequirementsInProject,
};
