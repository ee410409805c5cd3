// A validated copy of the built-in catalog, written at build time: reading 300+ YAML files and validating them costs
// ~150 ms at every start. The copy is used only while every provider file still has the size and modification time
// it had when the copy was made; otherwise the YAML is read.
//
// The copy is read in parts, because a run needs little of it: a Node app's check asks for the npm and domain
// matchers and the dozen providers its stack maps to, not the 300+ others (parsing all of them cost 14 ms of every
// start). Line 1 is a header (fingerprint, provider ids and the byte length of every other line); then one line per
// matcher group (the rows the matcher indexes, src/catalog/matchers.ts), one line of the providers' `helpers`, and
// one line per provider, parsed the first time that provider is asked for.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { writeFileAtomic } from '../fs-atomic.js';
import { CODE_DIR } from '../paths.js';
import { isRecord } from '../json-text.js';
import type { Catalog } from './catalog.js';
import {
  type HelperRow,
  helperRows,
  MATCHER_GROUP_NAMES,
  type MatcherGroup,
  type MatcherTable,
  matcherTable,
} from './matchers.js';
import type { Provider } from './schema.js';

export const CATALOG_CACHE = join(CODE_DIR, 'catalog-cache.json');
const CACHE_VERSION = 2;

interface CacheHeader {
  version: number;
  dir: string;
  fingerprint: string[];
  /** Every provider id, in catalog order: provider i is on line 3 + groups + i. */
  ids: string[];
  /** The matcher groups, in the order of their lines (line 2 onwards). */
  groups: string[];
  /** The byte length of each line after the header, without its newline. */
  lengths: number[];
}

/** A provider as the copy holds it: the name of its file instead of the path. */
type StoredProvider = Omit<Provider, 'file'> & { fileName: string };

/** One entry per provider file: name, size and modification time. */
export function fingerprint(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => /\.ya?ml$/.test(name))
    .sort()
    .map((name) => {
      const info = statSync(join(dir, name));
      return `${name}:${info.size}:${Math.trunc(info.mtimeMs)}`;
    });
}

/** The lines of a copy, each read when first asked for. */
class CopyLines {
  private readonly starts: number[] = [];

  constructor(
    private readonly bytes: Buffer,
    private readonly path: string,
    first: number,
    private readonly lengths: number[],
  ) {
    let at = first;
    for (const length of lengths) {
      this.starts.push(at);
      at += length + 1;
    }
  }

  /** Line `index` after the header, parsed. */
  parse<T>(index: number): T {
    const start = this.starts[index] as number;
    try {
      return JSON.parse(this.bytes.toString('utf8', start, start + (this.lengths[index] as number))) as T;
    } catch {
      // The lengths matched, so this is an edit by hand or a damaged disk, not a copy from another build.
      throw new Error(`${this.path}: line ${index + 2} of the catalog copy is damaged; run \`npm run build\``);
    }
  }
}

/**
 * The providers of a copy as a read-only map: `get` parses a provider the first time it is asked for; iterating
 * parses every one (the `providers` and `incidents` commands, a sync of every provider).
 */
class ProvidersFromCopy extends Map<string, Provider> {
  private readonly position: Map<string, number>;

  constructor(
    private readonly ids: readonly string[],
    private readonly read: (index: number) => Provider,
  ) {
    super();
    this.position = new Map(ids.map((id, index) => [id, index]));
  }

  override get(id: string): Provider | undefined {
    const parsed = super.get(id);
    if (parsed) return parsed;
    const index = this.position.get(id);
    if (index === undefined) return undefined;
    const provider = this.read(index);
    super.set(id, provider);
    return provider;
  }

  override has(id: string): boolean {
    return this.position.has(id);
  }

  override get size(): number {
    return this.ids.length;
  }

  override *keys(): MapIterator<string> {
    yield* this.ids;
  }

  override *values(): MapIterator<Provider> {
    for (const id of this.ids) yield this.get(id) as Provider;
  }

  override *entries(): MapIterator<[string, Provider]> {
    for (const id of this.ids) yield [id, this.get(id) as Provider];
  }

  override [Symbol.iterator](): MapIterator<[string, Provider]> {
    return this.entries();
  }

  override forEach(visit: (value: Provider, key: string, map: Map<string, Provider>) => void, self?: unknown): void {
    for (const [id, provider] of this.entries()) visit.call(self, provider, id, this);
  }

  override set(): this {
    throw new Error('the built-in catalog is read-only');
  }

  override delete(): boolean {
    throw new Error('the built-in catalog is read-only');
  }

  override clear(): void {
    throw new Error('the built-in catalog is read-only');
  }
}

/**
 * The built-in catalog from its copy, or undefined when there is no usable copy (none, another version, a truncated
 * one, or one made before a provider file changed).
 */
export function readCachedCatalog(dir: string, cachePath = CATALOG_CACHE): Catalog | undefined {
  let bytes: Buffer;
  let header: CacheHeader;
  let firstLine: number;
  try {
    bytes = readFileSync(cachePath);
    const end = bytes.indexOf(10);
    if (end < 0) return undefined;
    header = JSON.parse(bytes.toString('utf8', 0, end)) as CacheHeader;
    firstLine = end + 1;
  } catch {
    return undefined; // No copy (or an unreadable one): the YAML files are the source of truth anyway.
  }
  if (
    !isRecord(header) ||
    header.version !== CACHE_VERSION ||
    !Array.isArray(header.fingerprint) ||
    !Array.isArray(header.ids) ||
    !Array.isArray(header.lengths) ||
    header.dir !== resolve(dir) ||
    !sameGroups(header.groups) ||
    header.lengths.length !== header.groups.length + 1 + header.ids.length ||
    header.lengths.reduce((total, length) => total + length + 1, firstLine) !== bytes.length
  )
    return undefined;
  const current = fingerprint(dir);
  if (current.length !== header.fingerprint.length || current.some((entry, i) => entry !== header.fingerprint[i]))
    return undefined;
  const lines = new CopyLines(bytes, cachePath, firstLine, header.lengths);
  const groups = header.groups.length;
  const providers = new ProvidersFromCopy(header.ids, (index) => {
    const { fileName, ...provider } = lines.parse<StoredProvider>(groups + 1 + index);
    return { ...provider, file: join(dir, fileName) } as Provider;
  });
  const tables = new Map<MatcherGroup, MatcherTable>();
  let helpers: HelperRow[] | undefined;
  return {
    providers,
    matcherTable(group) {
      let table = tables.get(group);
      if (!table) tables.set(group, (table = lines.parse<MatcherTable>(MATCHER_GROUP_NAMES.indexOf(group))));
      return table;
    },
    helperRows: () => (helpers ??= lines.parse<HelperRow[]>(groups)),
  };
}

/** A copy from a build with other matcher groups is another format, whatever its version says. */
function sameGroups(groups: unknown): boolean {
  return (
    Array.isArray(groups) &&
    groups.length === MATCHER_GROUP_NAMES.length &&
    groups.every((group, i) => group === MATCHER_GROUP_NAMES[i])
  );
}

/** Every cached provider of `dir`, or undefined when there is no usable copy (the loader's way in). */
export function readCachedProviders(dir: string, cachePath = CATALOG_CACHE): Provider[] | undefined {
  const catalog = readCachedCatalog(dir, cachePath);
  return catalog && [...catalog.providers.values()];
}

/** Writes the copy from providers that were just loaded and validated from `dir`. */
export async function writeCatalogCache(dir: string, providers: Provider[], cachePath = CATALOG_CACHE): Promise<void> {
  const lines = [
    ...MATCHER_GROUP_NAMES.map((group) => JSON.stringify(matcherTable(providers, group))),
    JSON.stringify(helperRows(providers)),
    ...providers.map(({ file, ...provider }) => JSON.stringify({ ...provider, fileName: basename(file) })),
  ];
  const header: CacheHeader = {
    version: CACHE_VERSION,
    dir: resolve(dir),
    fingerprint: fingerprint(dir),
    ids: providers.map((provider) => provider.id),
    groups: [...MATCHER_GROUP_NAMES],
    lengths: lines.map((line) => Buffer.byteLength(line)),
  };
  await writeFileAtomic(cachePath, `${[JSON.stringify(header), ...lines].join('\n')}\n`);
}
