// `node --import` this file to have the child process print `loaded URL` on stderr for every module it loads:
// how the laziness tests see which modules a command pulled in, without timing anything.
import { writeSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';

register(new URL('./hooks.mjs', import.meta.url));

// Node 20's load hook sees imports only: a package loaded with require() (psl, hcl2-parser, ipaddr.js are, at their
// first use) shows in the require cache, which every require shares, so it is named when the process ends.
const { cache } = createRequire(import.meta.url);
process.on('exit', () => {
  for (const path of Object.keys(cache)) writeSync(2, `loaded ${pathToFileURL(path)}\n`);
});
