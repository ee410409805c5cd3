// A second, looser floor for a lockfile that is not JSON: a node process that reads it and parses it with the parser
// everyone uses for its format (the yaml library for pnpm-lock.yaml and yarn berry's yarn.lock, npm's own yarn.lock
// parser for yarn v1), and does nothing else. bench/startup.js prints the check's ratio to it for information only;
// the goal stays the ratio to the strict floor (lockfile-floor.js: JSON.parse of the same data).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const path = process.argv[2];
const text = readFileSync(path, 'utf8');
if (path.endsWith('.yaml') || text.includes('\n__metadata:')) {
  const { parse } = await import('yaml');
  parse(text, { maxAliasCount: -1 });
} else {
  const YarnLock = createRequire(import.meta.url)('@npmcli/arborist/lib/yarn-lock.js');
  new YarnLock().parse(text);
}
