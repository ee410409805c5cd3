// Build step: one file per library that ships as dozens of CommonJS files and is loaded at run time, so requiring it
// costs one read and one compile instead of one per file (the yaml library: 72 files, 28 ms → one file, 8 ms, at the
// first YAML file the fast readers leave to it). The library's code is bundled unchanged (no minifying) from the
// installed, pinned version, by the same bundler as our own code (scripts/build-bundle.js); src/vendored.ts loads the
// copy and falls back to the installed package when there is none.
import { createRequire, isBuiltin } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const require = createRequire(import.meta.url);
const VENDORED = ['yaml'];

for (const name of VENDORED)
  await build({
    input: require.resolve(name),
    platform: 'node',
    external: (id) => isBuiltin(id),
    output: {
      file: fileURLToPath(new URL(`../dist/vendor/${name}.cjs`, import.meta.url)),
      format: 'cjs',
      codeSplitting: false,
    },
    logLevel: 'warn',
  });
