// Gemfile.lock (https://bundler.io/guides/gemfile_lock.html): source sections (GEM, GIT, PATH) whose `specs:` list
// each gem at four spaces and its dependencies at six; DEPENDENCIES lists what the Gemfile declares. The lockfile
// does not say which gems only the development and test groups want: the Gemfile beside it does
// (https://bundler.io/guides/groups.html).
import { ParseError } from '../errors.js';
import type { InputProblem } from '../model.js';
import { dependenciesFromGraph, type LockEdge, type LockNode } from './lockfile/lock-graph.js';
import { assertNoConflictMarkers } from './lockfile/lock-text.js';
import { projectName, readBeside } from './packages/declared.js';
import { basename, type FileAccess, type Parser, type ParseResult } from './types.js';

const SPEC = /^ {4}([^\s(]+)(?: \(([^)]*)\))?$/;
const SPEC_DEPENDENCY = /^ {6}([^\s(]+)(?: \(([^)]*)\))?$/;
const DECLARED = /^ {2}([^\s(!]+)(!)?(?: \(([^)]*)\))?$/;
const ROOT = '\u0000Gemfile';

export function parseGemfileLock(text: string, path: string, gemfile?: string): ParseResult {
  assertNoConflictMarkers(text, path, 'bundle install rewrites a conflicted Gemfile.lock');
  const errors: InputProblem[] = [];
  const nodes = new Map<string, LockNode>();
  const edgeNames = new Map<string, string[]>();
  const declared: string[] = [];
  let section = '';
  let inSpecs = false;
  let current: string | undefined;
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    if (!line.trim()) continue;
    if (/^[A-Z]/.test(line)) {
      section = line.trim();
      inSpecs = false;
      current = undefined;
      continue;
    }
    if (section === 'DEPENDENCIES') {
      const hit = DECLARED.exec(line);
      if (hit) declared.push(hit[1] as string);
      else
        errors.push({
          file: path,
          line: index + 1,
          message: `not a dependency line: "${line.trim().slice(0, 80)}"; skipped`,
        });
      continue;
    }
    if (!['GEM', 'GIT', 'PATH', 'PLUGIN SOURCE'].includes(section)) continue;
    if (line === '  specs:') {
      inSpecs = true;
      continue;
    }
    if (!inSpecs) continue;
    const spec = SPEC.exec(line);
    if (spec) {
      const name = spec[1] as string;
      current = name;
      // One gem may be listed once per platform (`nokogiri (1.16.0-x86_64-linux)`): the first listing is kept.
      if (!nodes.has(name)) {
        const version = spec[2]?.replace(/-(x86|x64|arm|aarch|universal|java|mingw|mswin|darwin|linux)[\w-]*$/, '');
        nodes.set(name, { id: name, name, ...(version ? { version } : {}), line: index + 1, edges: [] });
        edgeNames.set(name, []);
      }
      continue;
    }
    const dependency = SPEC_DEPENDENCY.exec(line);
    if (dependency && current) edgeNames.get(current)?.push(dependency[1] as string);
    else
      errors.push({
        file: path,
        line: index + 1,
        message: `not a gem spec line: "${line.trim().slice(0, 80)}"; skipped`,
      });
  }
  if (nodes.size === 0 && declared.length === 0)
    throw new ParseError(path, 1, 'a Gemfile.lock lists gems under GEM specs: and DEPENDENCIES; none found');
  for (const [name, targets] of edgeNames) {
    const node = nodes.get(name) as LockNode;
    node.edges = [...new Set(targets)]
      .filter((target) => nodes.has(target))
      .map((to): LockEdge => ({ to, type: 'prod' }));
  }
  const devOnly = gemfile === undefined ? new Set<string>() : devGroupGems(gemfile);
  nodes.set(ROOT, {
    id: ROOT,
    name: projectName(path),
    edges: declared
      .filter((name) => nodes.has(name))
      .map((to) => ({ to, type: devOnly.has(to) ? ('dev' as const) : ('prod' as const) })),
  });
  return {
    ...dependenciesFromGraph({ nodes, roots: [{ id: ROOT, name: projectName(path) }] }, path, 'rubygems'),
    errors,
  };
}

const DEV_GROUPS = new Set(['development', 'test']);

/**
 * Gems the Gemfile declares only for the development and test groups: inside `group :development, :test do … end`
 * blocks or with `group:`/`groups:` options. The Gemfile is Ruby; this reads the common forms, not every program.
 */
export function devGroupGems(gemfile: string): Set<string> {
  const dev = new Set<string>();
  // One entry per open `do` block: the groups it names, or null for a block that is no group (platforms, source…).
  const blocks: Array<string[] | null> = [];
  const groupsIn = (text: string) =>
    [...text.matchAll(/:(\w+)|["'](\w+)["']/g)].map((hit) => (hit[1] ?? hit[2]) as string);
  for (const raw of gemfile.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    if (!line) continue;
    const group = /^group\s+(.+?)\s+do(\s*\|.*\|)?$/.exec(line);
    if (group) {
      blocks.push(groupsIn(group[1] as string));
      continue;
    }
    if (/\bdo(\s*\|[^|]*\|)?$/.test(line)) {
      blocks.push(null);
      continue;
    }
    if (line === 'end') {
      blocks.pop();
      continue;
    }
    const gem = /^gem\s+["']([^"']+)["'](.*)$/.exec(line);
    if (!gem) continue;
    const option = /\bgroups?:\s*(\[[^\]]*\]|:\w+|["']\w+["'])/.exec(gem[2] as string);
    const groups = [...blocks.flatMap((block) => block ?? []), ...(option ? groupsIn(option[1] as string) : [])];
    if (groups.length > 0 && groups.every((name) => DEV_GROUPS.has(name))) dev.add(gem[1] as string);
  }
  return dev;
}

/** As the scan reads it: with the Gemfile beside it, which says which gems only development and test want. */
async function parseGemfileLockInProject(text: string, path: string, files: FileAccess): Promise<ParseResult> {
  const name = basename(path) === 'gems.locked' ? 'gems.rb' : basename(path).replace(/\.lock$/, '');
  const problems: InputProblem[] = [];
  const result = parseGemfileLock(text, path, await readBeside(files, path, name, problems));
  return { ...result, errors: [...problems, ...result.errors] };
}

export const gemfileLockParser: Parser = {
  kind: 'Gemfile.lock',
  matches: (path) => /^(Gemfile|gems\.rb|.+\.gemfile)\.lock$|^gems\.locked$/.test(basename(path)),
  sniff: (text) => /^(GEM|GIT|PATH)\r?\n {2}remote: /m.test(text) && /^DEPENDENCIES\r?$/m.test(text),
  parse: parseGemfileLockInProject,
};
