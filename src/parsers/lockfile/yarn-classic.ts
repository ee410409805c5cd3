// yarn.lock v1 (yarn classic): https://classic.yarnpkg.com/lang/en/docs/yarn-lock/
// The format names no roots: the project's package.json (and its workspaces') say where chains start;
// without them the entries nothing else depends on are taken as the direct dependencies, with a warning.
import { ParseError } from '../../errors.js';
import { isRecord } from '../../json-text.js';
import type { InputProblem } from '../../model.js';
import { dependenciesFromGraph, type EdgeType, type LockEdge, type LockNode, type LockRoot } from './lock-graph.js';
import { inScope, type ParseResult, type ParseOptions } from '../types.js';
import { quotedAsWritten } from './yaml-fast.js';

interface ClassicEntry {
  id: string;
  name: string;
  version?: string;
  line: number;
  deps: Array<{ name: string; range: string; type: EdgeType }>;
}

/** A project's manifest for chain roots: directory relative to the lockfile ('.' for its own) and contents. */
export interface WorkspaceManifest {
  dir: string;
  manifest: Record<string, unknown>;
}

const ROOT_SECTIONS: Array<[string, EdgeType]> = [
  ['dependencies', 'prod'],
  ['optionalDependencies', 'optional'],
  ['devDependencies', 'dev'],
];

export function readYarnClassic(text: string, path: string, errors: InputProblem[]): ClassicEntry[] {
  const entries: ClassicEntry[] = [];
  const lines = text.split('\n');
  let current: ClassicEntry | undefined;
  let section: EdgeType | undefined;
  let skipping = false;
  const byDescriptor = new Set<string>();

  for (let index = 0; index < lines.length; index++) {
    const raw = (lines[index] as string).replace(/\r$/, '');
    const lineNumber = index + 1;
    if (raw.trim() === '') continue;
    if (raw.startsWith('#')) {
      const header = /^# yarn lockfile v(\d+)/.exec(raw);
      if (header && header[1] !== '1')
        errors.push({
          file: path,
          line: lineNumber,
          message: `yarn lockfile v${header[1]} is not one downstack knows (v1); read as v1`,
        });
      continue;
    }
    const indent = raw.length - raw.trimStart().length;
    const content = raw.trim();
    if (indent === 0) {
      section = undefined;
      const descriptors = content.endsWith(':') ? splitDescriptors(content.slice(0, -1)) : undefined;
      if (!descriptors || descriptors.length === 0) {
        errors.push({
          file: path,
          line: lineNumber,
          message: `expected an entry like "name@range:", found ${JSON.stringify(content.slice(0, 60))}; entry skipped`,
        });
        current = undefined;
        skipping = true;
        continue;
      }
      skipping = false;
      for (const descriptor of descriptors) {
        if (byDescriptor.has(descriptor))
          errors.push({
            file: path,
            line: lineNumber,
            message: `"${descriptor}" is listed twice; the later entry is used`,
          });
        byDescriptor.add(descriptor);
      }
      const first = descriptors[0] as string;
      current = { id: descriptors.join(', '), name: realName(first), line: lineNumber, deps: [] };
      entries.push(current);
      continue;
    }
    if (skipping || !current) {
      if (!skipping) errors.push({ file: path, line: lineNumber, message: 'indented line outside an entry; skipped' });
      continue;
    }
    const pair = splitPair(content);
    if (!pair) {
      errors.push({
        file: path,
        line: lineNumber,
        message: `cannot read ${JSON.stringify(content.slice(0, 60))}; line skipped`,
      });
      continue;
    }
    if (indent <= 2) {
      section = pair.value === undefined ? sectionType(pair.key) : undefined;
      if (pair.key === 'version' && pair.value !== undefined) current.version = pair.value;
    } else if (section && pair.value !== undefined) {
      current.deps.push({ name: pair.key, range: pair.value, type: section });
    }
  }
  return entries;
}

function sectionType(key: string): EdgeType | undefined {
  if (key === 'dependencies') return 'prod';
  if (key === 'optionalDependencies') return 'optional';
  return undefined;
}

/** `"@s/a@^1", a@^2` → descriptors; undefined when a quote is left open. */
function splitDescriptors(text: string): string[] | undefined {
  const out: string[] = [];
  for (const part of text.split(/,\s*/)) {
    const value = unquote(part.trim());
    if (value === undefined || value === '') return undefined;
    out.push(value);
  }
  return out;
}

/** `key value`, `"key" "value"` or `key:` (a section). */
function splitPair(content: string): { key: string; value?: string } | undefined {
  if (content.endsWith(':')) {
    const key = unquote(content.slice(0, -1));
    return key === undefined ? undefined : { key };
  }
  const match = /^("(?:[^"\\]|\\.)*"|\S+)\s+(.+)$/.exec(content);
  if (!match) return undefined;
  const key = unquote(match[1] as string);
  const value = unquote((match[2] as string).trim());
  return key === undefined || value === undefined ? undefined : { key, value };
}

function unquote(text: string): string | undefined {
  if (!text.startsWith('"')) return text;
  if (text.length < 2 || !text.endsWith('"')) return undefined;
  const asWritten = text.indexOf('"', 1) === text.length - 1 ? quotedAsWritten(text) : undefined;
  if (asWritten !== undefined) return asWritten;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'string' ? value : undefined;
  } catch {
    // A bad escape makes the pair unreadable; the caller reports the line.
    return undefined;
  }
}

/** `alias@npm:real@^1` → `real`; `name@^1` → `name`. */
function realName(descriptor: string): string {
  const at = descriptor.indexOf('@', 1);
  const name = at > 0 ? descriptor.slice(0, at) : descriptor;
  const range = at > 0 ? descriptor.slice(at + 1) : '';
  if (range.startsWith('npm:')) {
    const target = range.slice(4);
    const targetAt = target.indexOf('@', 1);
    return targetAt > 0 ? target.slice(0, targetAt) : target;
  }
  return name;
}

export function parseYarnClassic(
  text: string,
  path: string,
  manifests: WorkspaceManifest[],
  fallbackRootName: string,
  options: ParseOptions = {},
): ParseResult {
  const errors: InputProblem[] = [];
  const entries = readYarnClassic(text, path, errors);
  if (entries.length === 0 && errors.length > 0)
    throw new ParseError(path, errors[0]?.line, errors[0]?.message ?? 'no entries');

  const byDescriptor = new Map<string, string>();
  const nodes = new Map<string, LockNode>();
  for (const entry of entries) {
    for (const descriptor of entry.id.split(', ')) byDescriptor.set(descriptor, entry.id);
  }
  for (const entry of entries) {
    const edges: LockEdge[] = [];
    for (const dep of entry.deps) {
      const to = byDescriptor.get(`${dep.name}@${dep.range}`);
      if (to !== undefined) edges.push({ to, type: dep.type });
    }
    nodes.set(entry.id, {
      id: entry.id,
      name: entry.name,
      ...(entry.version !== undefined ? { version: entry.version } : {}),
      line: entry.line,
      edges,
    });
  }

  const roots: LockRoot[] = [];
  const workspaceIds = new Map<string, string>();
  for (const { dir, manifest } of manifests) {
    const name =
      typeof manifest.name === 'string' && manifest.name !== '' ? manifest.name : dir === '.' ? fallbackRootName : dir;
    workspaceIds.set(name, `workspace:${dir}`);
    roots.push({ id: `workspace:${dir}`, name, dir });
  }
  for (const { dir, manifest } of manifests) {
    const edges: LockEdge[] = [];
    for (const [section, type] of ROOT_SECTIONS) {
      const deps = manifest[section];
      if (!isRecord(deps)) continue;
      for (const [name, range] of Object.entries(deps)) {
        // yarn v1 links a workspace whenever a sibling asks for its name.
        const to =
          workspaceIds.get(name) ?? (typeof range === 'string' ? byDescriptor.get(`${name}@${range}`) : undefined);
        if (to !== undefined) edges.push({ to, type });
      }
    }
    nodes.set(`workspace:${dir}`, {
      id: `workspace:${dir}`,
      name: roots.find((root) => root.id === `workspace:${dir}`)?.name ?? dir,
      edges,
    });
  }
  if (roots.length === 0) {
    errors.push({
      file: path,
      message:
        'no package.json next to this yarn.lock: direct dependencies are inferred (entries nothing else depends on)',
    });
    const required = new Set<string>();
    for (const node of nodes.values()) for (const edge of node.edges) required.add(edge.to);
    const edges = [...nodes.keys()].filter((id) => !required.has(id)).map((to) => ({ to, type: 'prod' as const }));
    nodes.set('workspace:.', { id: 'workspace:.', name: fallbackRootName, edges });
    roots.push({ id: 'workspace:.', name: fallbackRootName, dir: '.' });
  }
  return {
    ...dependenciesFromGraph({ nodes, roots }, path, 'npm', options),
    errors,
    projectDirs: manifests.map((entry) => entry.dir).filter((dir) => !options.scope || inScope(dir, options.scope)),
    ownPackages: roots.map((root) => root.name),
  };
}
