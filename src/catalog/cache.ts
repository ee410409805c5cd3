// A validated copy of the built-in catalog as one JSON file, written at build time: reading 300+ YAML files and
// validating them costs ~150 ms at every start, JSON.parse of the copy a few. The copy is used only while every
// provider file still has the size and modification time it had when the copy was made; otherwise the YAML is read.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from '../fs-atomic.js';
import type { Provider } from './schema.js';

export const CATALOG_CACHE = fileURLToPath(new URL('../catalog-cache.json', import.meta.url));
const CACHE_VERSION = 1;

interface CacheFile {
  version: number;
  dir: string;
  fingerprint: string[];
  /** Each provider with the name of the file it came from. */
  providers: Array<Omit<Provider, 'file'> & { fileName: string }>;
}

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

/** The cached providers of `dir`, or undefined when there is no copy or any file changed since it was made. */
export function readCachedProviders(dir: string, cachePath = CATALOG_CACHE): Provider[] | undefined {
  let cache: CacheFile;
  try {
    cache = JSON.parse(readFileSync(cachePath, 'utf8')) as CacheFile;
  } catch {
    return undefined; // No copy (or an unreadable one): the YAML files are the source of truth anyway.
  }
  if (cache.version !== CACHE_VERSION || cache.dir !== resolve(dir)) return undefined;
  const current = fingerprint(dir);
  if (current.length !== cache.fingerprint.length || current.some((entry, i) => entry !== cache.fingerprint[i]))
    return undefined;
  return cache.providers.map(({ fileName, ...provider }) => ({ ...provider, file: join(dir, fileName) }));
}

/** Writes the copy from providers that were just loaded and validated from `dir`. */
export async function writeCatalogCache(dir: string, providers: Provider[], cachePath = CATALOG_CACHE): Promise<void> {
  const cache: CacheFile = {
    version: CACHE_VERSION,
    dir: resolve(dir),
    fingerprint: fingerprint(dir),
    providers: providers.map(({ file, ...provider }) => ({ ...provider, fileName: basename(file) })),
  };
  await writeFileAtomic(cachePath, JSON.stringify(cache));
}
