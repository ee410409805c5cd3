// Libraries the build bundles into one file each (scripts/build-vendor.js): the yaml library ships as 72 CommonJS
// files, and requiring them one by one cost 28 ms at the first YAML file it reads; its one-file copy loads in 8. Every
// use of such a library goes through here, so a run never holds two copies of it. Without the copy (the sources run
// by the tests, or a build without that step) the installed package is loaded instead.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { CODE_DIR } from './paths.js';

const require = createRequire(import.meta.url);
let yaml: typeof import('yaml') | undefined;

/** The yaml library, loaded on first use. */
export function yamlLibrary(): typeof import('yaml') {
  yaml ??= vendored<typeof import('yaml')>('yaml');
  return yaml;
}

function vendored<T>(name: string): T {
  try {
    return require(join(CODE_DIR, 'vendor', `${name}.cjs`)) as T;
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'MODULE_NOT_FOUND') throw error;
    return require(name) as T;
  }
}
