// Where the package's own data lives, resolved from this module so it works from any working directory. This module
// runs from three places: compiled (dist/paths.js), bundled into a chunk of dist/bundle/ (scripts/build-bundle.js), or
// as source under the tests (src/paths.ts). CODE_DIR is the folder of the top-level modules in each case (dist, dist,
// src): the files the build writes beside the code (the catalog copy, the vendored libraries) are found from there.
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));

export const CODE_DIR = basename(HERE) === 'bundle' ? dirname(HERE) : HERE;
export const PACKAGE_ROOT = dirname(CODE_DIR);
export const PROVIDERS_DIR = join(PACKAGE_ROOT, 'providers/');
export const SNAPSHOT_DIR = join(PACKAGE_ROOT, 'snapshot/');
export const HISTORY_DIR = join(PACKAGE_ROOT, 'history/');
export const IP_RANGES_FILE = join(PACKAGE_ROOT, 'data/ip-ranges.json');
