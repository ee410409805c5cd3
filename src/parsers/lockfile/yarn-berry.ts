// yarn.lock of yarn 2+ ("berry", YAML with __metadata): https://yarnpkg.com/advanced/lockfile
// Entries are keyed by their descriptors (`name@npm:^1.0.0, name@npm:^1.2.0`) and identified by `resolution`;
// workspaces are entries whose resolution is `name@workspace:path`.
import type { InputProblem } from '../../model.js';
import { dependenciesFromGraph, type LockEdge, type LockNode, type LockRoot } from './lock-graph.js';
import { inScope, type ParseResult, type ParseOptions } from '../types.js';
import type { YamlEntry, YamlLock } from './yaml-lock.js';

/** Berry lockfile format versions seen in the wild (yarn 2 wrote 4, yarn 4 writes 8). */
const KNOWN_VERSIONS = new Set(['4', '5', '6', '7', '8']);

/** Workspace directories the lockfile lists (`.` for the top one). */
export function berryWorkspaceDirs(yaml: YamlLock): string[] {
  const dirs: string[] = [];
  for (const entry of yaml.entries(yaml.root)) {
    const { reference } = splitLocator(yaml.scalar(yaml.get(entry.value, 'resolution')) ?? '');
    if (reference.startsWith('workspace:')) dirs.push(reference.slice('workspace:'.length));
  }
  return dirs;
}

/**
 * Berry folds a workspace's devDependencies into its `dependencies`: `devNames` (workspace directory → the
 * names its package.json lists only as devDependencies) puts the dev flag back when the manifests are at hand.
 */
export function parseYarnBerry(
  yaml: YamlLock,
  path: string,
  devNames: Map<string, Set<string>> = new Map(),
  options: ParseOptions = {},
): ParseResult {
  const errors: InputProblem[] = [];
  const metadata = yaml.get(yaml.root, '__metadata');
  const version = yaml.scalar(yaml.get(metadata, 'version'));
  if (version !== undefined && !KNOWN_VERSIONS.has(version) && Number(version) > 10) {
    errors.push({
      file: path,
      line: 4,
      message: `yarn lockfile format ${version} is newer than downstack knows; read as the latest known`,
    });
  }

  const byDescriptor = new Map<string, string>();
  const entries: Array<{ id: string; entry: YamlEntry }> = [];
  for (const entry of yaml.entries(yaml.root)) {
    if (entry.key === '__metadata') continue;
    const id = yaml.scalar(yaml.get(entry.value, 'resolution')) ?? entry.key.split(', ')[0] ?? entry.key;
    entries.push({ id, entry });
    for (const descriptor of entry.key.split(/,\s*/)) byDescriptor.set(descriptor.trim(), id);
  }

  const nodes = new Map<string, LockNode>();
  const roots: LockRoot[] = [];
  for (const { id, entry } of entries) {
    const { name, reference } = splitLocator(id);
    const workspace = reference.startsWith('workspace:');
    const dev = workspace ? devNames.get(reference.slice('workspace:'.length)) : undefined;
    const optional = new Set<string>();
    for (const meta of yaml.entries(yaml.get(entry.value, 'dependenciesMeta'))) {
      if (yaml.scalar(yaml.get(meta.value, 'optional')) === 'true') optional.add(meta.key);
    }
    const edges: LockEdge[] = [];
    for (const dep of yaml.entries(yaml.get(entry.value, 'dependencies'))) {
      const range = yaml.scalar(dep.value);
      const to = range === undefined ? undefined : resolveDescriptor(byDescriptor, dep.key, range);
      if (to !== undefined)
        edges.push({ to, type: dev?.has(dep.key) ? 'dev' : optional.has(dep.key) ? 'optional' : 'prod' });
    }
    // The lockfile records peer dependencies unresolved: whoever provides them already has its own edge.
    const version = yaml.scalar(yaml.get(entry.value, 'version'));
    nodes.set(id, { id, name, ...(version !== undefined && !workspace ? { version } : {}), line: entry.line, edges });
    if (workspace) roots.push({ id, name, dir: reference.slice('workspace:'.length) });
  }
  roots.sort((a, b) => (isTopWorkspace(a.id) ? -1 : isTopWorkspace(b.id) ? 1 : a.id < b.id ? -1 : 1));
  return {
    ...dependenciesFromGraph({ nodes, roots }, path, 'npm', options),
    errors,
    projectDirs: roots.map((root) => root.dir as string).filter((dir) => !options.scope || inScope(dir, options.scope)),
    ownPackages: roots.map((root) => root.name),
  };
}

const isTopWorkspace = (id: string) => id.endsWith('@workspace:.');

/** A range that names its protocol (`npm:^1.2.0`, `workspace:*`, `patch:…`, `https://…`). */
const PROTOCOL = /^[a-z][a-z0-9+.-]*:/i;

/**
 * The entry a dependency resolves to. Yarn 4 writes ranges as the lockfile's keys do (`npm:^1.2.0`); Yarn 2 and 3
 * (lockfile versions 4 to 6) write them as the manifest did (`^1.2.0`), and yarn reads a range without a protocol
 * as npm's, which is how the keys spell it.
 */
function resolveDescriptor(byDescriptor: Map<string, string>, name: string, range: string): string | undefined {
  return (
    byDescriptor.get(`${name}@${range}`) ??
    (PROTOCOL.test(range) ? undefined : byDescriptor.get(`${name}@npm:${range}`))
  );
}

/** `@scope/name@npm:1.2.3` → name and reference (the part after the name's `@`). */
export function splitLocator(locator: string): { name: string; reference: string } {
  const at = locator.indexOf('@', 1);
  return at > 0 ? { name: locator.slice(0, at), reference: locator.slice(at + 1) } : { name: locator, reference: '' };
}
