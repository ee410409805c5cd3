// pnpm-lock.yaml v6 and v9: https://github.com/pnpm/spec/blob/master/lockfile/9.0.md (and 6.0.md)
import { posix } from 'node:path';
import { ParseError } from '../errors.js';
import type { InputProblem } from '../model.js';
import {
  dependenciesFromGraph,
  type EdgeType,
  type LockEdge,
  type LockGraph,
  type LockNode,
  type LockRoot,
} from './lockfile/lock-graph.js';
import { assertNoConflictMarkers, dirName } from './lockfile/lock-text.js';
import {
  basename,
  besides,
  type FileAccess,
  inScope,
  type Parser,
  type ParseResult,
  type ParseOptions,
} from './types.js';
import { readYamlLock, type YamlEntry, type YamlLock } from './lockfile/yaml-lock.js';

const FIX = 'pnpm install --lockfile-only rewrites a conflicted pnpm-lock.yaml';
const IMPORTER_SECTIONS: Array<[string, EdgeType]> = [
  ['dependencies', 'prod'],
  ['optionalDependencies', 'optional'],
  ['devDependencies', 'dev'],
];
const importerId = (dir: string) => `importer:${dir}`;
const NO_PEERS: ReadonlySet<string> = new Set();

interface LoadedPnpmLock {
  yaml: YamlLock;
  importers: YamlEntry[];
}

function load(text: string, path: string): LoadedPnpmLock {
  assertNoConflictMarkers(text, path, FIX);
  const yaml = readYamlLock(text, path);
  const importers = yaml.get(yaml.root, 'importers');
  return {
    yaml,
    importers: importers === undefined ? [{ key: '.', value: yaml.root, line: 1 }] : yaml.entries(importers),
  };
}

export function parsePnpmLock(text: string, path: string): ParseResult {
  return build(load(text, path), path, new Map());
}

/** `names` maps an importer directory to its package name, when the core could read its package.json. */
function build(
  { yaml, importers: importerEntries }: LoadedPnpmLock,
  path: string,
  names: Map<string, string>,
  options: ParseOptions = {},
): ParseResult {
  const errors: InputProblem[] = [];
  const version = yaml.scalar(yaml.get(yaml.root, 'lockfileVersion'));
  const major = Number.parseInt(version ?? '', 10);
  if (version === undefined) throw new ParseError(path, 1, 'not a pnpm lockfile: no lockfileVersion');
  if (major !== 6 && major !== 9)
    errors.push({
      file: path,
      line: 1,
      message: `lockfileVersion ${version} is not one downstack knows (6.x or 9.x); read as ${major > 9 ? 'v9' : 'v6'}`,
    });
  const v9 = major >= 9;

  // v9 keeps metadata (peer declarations) in `packages` and the resolved graph in `snapshots`; v6 has both in `packages`.
  const meta = new Map(
    yaml
      .entries(yaml.get(yaml.root, 'packages'))
      .map((entry) => [v9 ? entry.key : entry.key.replace(/^\//, ''), entry]),
  );
  const graphEntries = v9
    ? new Map(yaml.entries(yaml.get(yaml.root, 'snapshots')).map((entry) => [entry.key, entry]))
    : meta;

  const linkNames = new Map<string, string>();
  const nodes = new Map<string, LockNode>();
  const roots: LockRoot[] = [];

  for (const importer of importerEntries) {
    const dir = posix.normalize(importer.key);
    const edges: LockEdge[] = [];
    for (const [section, type] of IMPORTER_SECTIONS) {
      for (const dep of yaml.entries(yaml.get(importer.value, section))) {
        // v6+ importers hold `{specifier, version}`; older single-project files hold the version itself.
        const ref = yaml.scalar(yaml.get(dep.value, 'version')) ?? yaml.scalar(dep.value);
        if (ref === undefined) continue;
        if (ref.startsWith('link:')) {
          const target = posix.normalize(posix.join(dir, ref.slice('link:'.length)));
          linkNames.set(target, dep.key);
          edges.push({ to: importerId(target), type });
          continue;
        }
        const id = snapshotId(dep.key, ref);
        if (graphEntries.has(id)) edges.push({ to: id, type });
      }
    }
    nodes.set(importerId(dir), { id: importerId(dir), name: dir, edges });
    roots.push({ id: importerId(dir), name: dir, dir });
  }
  for (const root of roots) {
    const dir = root.id.slice('importer:'.length);
    root.name = names.get(dir) ?? linkNames.get(dir) ?? (dir === '.' ? dirName(path) : dir);
    (nodes.get(root.id) as LockNode).name = root.name;
  }
  // Links to folders outside the workspace are not importers: drop edges that point nowhere.
  for (const node of nodes.values())
    node.edges = node.edges.filter((edge) => !edge.to.startsWith('importer:') || nodes.has(edge.to));

  for (const [id, entry] of graphEntries) {
    const { name, version } = splitId(id);
    const metaEntry = meta.get(withoutPeers(id)) ?? meta.get(id);
    const declaredPeers = yaml.get(metaEntry?.value, 'peerDependencies');
    const peers = declaredPeers === undefined ? NO_PEERS : new Set(yaml.entries(declaredPeers).map((peer) => peer.key));
    const edges: LockEdge[] = [];
    for (const [section, type] of [
      ['dependencies', 'prod'],
      ['optionalDependencies', 'optional'],
    ] as const) {
      for (const dep of yaml.entries(yaml.get(entry.value, section))) {
        const ref = yaml.scalar(dep.value);
        if (ref === undefined) continue;
        const to = ref.startsWith('link:') ? undefined : snapshotId(dep.key, ref);
        if (to !== undefined && graphEntries.has(to)) edges.push({ to, type: peers.has(dep.key) ? 'peer' : type });
      }
    }
    const explicitName = yaml.scalar(yaml.get(metaEntry?.value, 'name'));
    const explicitVersion = yaml.scalar(yaml.get(metaEntry?.value, 'version'));
    nodes.set(id, {
      id,
      name: explicitName ?? name,
      version: explicitVersion ?? version,
      line: entry.line,
      edges,
      // A `file:` folder is part of this repository: what it declares is the repository's own (a tarball is not).
      ...(version.startsWith('file:') && !/\.(tgz|tar\.gz|tar)$/.test(version) ? { ours: true } : {}),
    });
  }
  if (roots.length === 0) throw new ParseError(path, 1, 'no importers in this pnpm lockfile');
  return {
    ...dependenciesFromGraph({ nodes, roots } satisfies LockGraph, path, 'npm', options),
    errors,
    projectDirs: roots
      .map((root) => root.id.slice('importer:'.length))
      .filter((dir) => !options.scope || inScope(dir, options.scope)),
    ownPackages: roots.map((root) => root.name),
  };
}

/** The graph key a dependency reference points at: `name@ref`, or the reference itself for an alias. */
function snapshotId(name: string, ref: string): string {
  if (ref.startsWith('/')) return ref.slice(1);
  return withoutPeers(ref).lastIndexOf('@') > 0 ? ref : `${name}@${ref}`;
}

/** `name@1.2.3(peer@1.0.0)` → `name@1.2.3`. */
function withoutPeers(id: string): string {
  const at = id.indexOf('(');
  return at < 0 ? id : id.slice(0, at);
}

/** `@scope/name@1.2.3(peer@1.0.0)` → name and version, peers left out. */
function splitId(id: string): { name: string; version: string } {
  const base = withoutPeers(id);
  const at = base.indexOf('@', 1);
  return at > 0 ? { name: base.slice(0, at), version: base.slice(at + 1) } : { name: base, version: '' };
}

/** As the scan reads it: each importer named after its package.json (the lockfile gives only directories). */
export async function parsePnpmLockInProject(
  text: string,
  path: string,
  files: FileAccess,
  options: ParseOptions = {},
): Promise<ParseResult> {
  const loaded = load(text, path);
  const names = new Map<string, string>();
  for (const importer of loaded.importers) {
    const dir = posix.normalize(importer.key);
    const manifest = await files.read(besides(path, posix.join(dir, 'package.json')));
    const name = manifestName('text' in manifest ? manifest.text : undefined);
    if (name) names.set(dir, name);
  }
  return build(loaded, path, names, options);
}

export function manifestName(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    const manifest: unknown = JSON.parse(text);
    const name = (manifest as { name?: unknown } | null)?.name;
    return typeof name === 'string' && name !== '' ? name : undefined;
  } catch {
    // A broken package.json only costs the workspace its display name; the manifest's own input reports it.
    return undefined;
  }
}

export const pnpmLockParser: Parser = {
  kind: 'pnpm-lock',
  matches: (path) => basename(path) === 'pnpm-lock.yaml',
  sniff: (text) =>
    /^lockfileVersion: ['"]?\d/m.test(text.slice(0, 512)) && /^(importers|packages|dependencies):/m.test(text),
  parse: parsePnpmLockInProject,
  supersedes: ['package.json'],
};
