// Where the package's own data lives, resolved from this module so it works from any working directory.
import { fileURLToPath } from 'node:url';

export const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const PROVIDERS_DIR = fileURLToPath(new URL('../providers/', import.meta.url));
export const SNAPSHOT_DIR = fileURLToPath(new URL('../snapshot/', import.meta.url));
export const HISTORY_DIR = fileURLToPath(new URL('../history/', import.meta.url));
export const IP_RANGES_FILE = fileURLToPath(new URL('../data/ip-ranges.json', import.meta.url));
