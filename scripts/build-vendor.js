// Build step: one file per library that ships as dozens of CommonJS files and is loaded at run time, so requiring it
// costs one read and one compile instead of one per file (the yaml library: 72 files, 28 ms → one file, 8 ms, at the
// first YAML file the fast readers leave to it). The library's code is bundled unchanged (no minifying) from the
// installed, pinned version; src/vendored.ts loads the copy and falls back to the installed package when there is none.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const require = createRequire(import.meta.url);
const VENDORED = ['yaml'];

for (const name of VENDORED)
  buildSync({
    entryPoints: [require.resolve(name)],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    outfile: fileURLToPath(new URL(`../dist/vendor/${name}.cjs`, import.meta.url)),
    legalComments: 'inline',
    logLevel: 'warning',
  });
