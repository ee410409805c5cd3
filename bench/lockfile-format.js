// A YAML or yarn v1 lockfile read by the parser everyone uses for its format: the yaml library for pnpm-lock.yaml and
// yarn berry's yarn.lock, npm's own yarn.lock parser for yarn v1. bench/startup.js writes the data as JSON for the
// strict floor, and its format-floor child times this reading itself. Each library is loaded only when its format is
// met, so the child pays for one of them.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The parsed data: a plain object for YAML, a Map of entries for yarn v1. */
export function parseWithItsFormat(path, text) {
  if (path.endsWith('.yaml') || text.includes('\n__metadata:'))
    return require('yaml').parse(text, { maxAliasCount: -1 });
  const YarnLock = require('@npmcli/arborist/lib/yarn-lock.js');
  return new YarnLock().parse(text).entries;
}
