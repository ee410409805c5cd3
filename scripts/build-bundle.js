// Build step, after tsc: the compiled modules of dist/ bundled into a few files under dist/bundle/, which
// bin/downstack.js runs. Node loads an ES module file by file (resolve, read, compile, link), about 0.4 ms each on a
// 2-core machine; a check went through 61–73 of ours, 25–30 ms before it read its first input. Here a check loads
// 3–8 files and still nothing it does not use:
// - `cli.js`: the CLI and its option table, everything `--help` needs (the static imports of dist/cli.js);
// - `check.js`: what every check runs whatever its inputs (the static imports of the check command, the settings and
//   the table report), one file instead of ~50;
// - each input kind's parser, the other commands, the sync, the readers and report formats: their own files, loaded by
//   the dynamic import() that loaded them before.
// Packages stay outside (node_modules, and the one-file copies of dist/vendor/). dist/bundle/modules.json lists the
// modules in each file, so the start-up tests can say which modules a run loaded (test/helpers/module-loads.ts).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
const OUT = join(DIST, 'bundle');

/** What every check loads: these modules and their static imports. */
const CHECK_ROOTS = ['commands/check.js', 'settings/resolve.js', 'report/table.js'].map((path) => join(DIST, path));

// The module graph, as rolldown parses it: static imports per module.
const imports = new Map();
const closure = (starts) => {
  const seen = new Set();
  const stack = [...starts];
  while (stack.length > 0) {
    const id = stack.pop();
    if (seen.has(id)) continue;
    seen.add(id);
    for (const next of imports.get(id) ?? []) stack.push(next);
  }
  return seen;
};
// Asked for only once the whole graph is parsed.
let groups;
const group = (id) => {
  if (!groups) {
    const cli = closure([join(DIST, 'cli.js')]);
    groups = { cli, check: new Set([...closure(CHECK_ROOTS)].filter((module) => !cli.has(module))) };
  }
  return groups.cli.has(id) ? 'cli' : groups.check.has(id) ? 'check' : null;
};

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const manifest = {};
await build({
  input: { cli: join(DIST, 'cli.js'), 'sync-worker': join(DIST, 'sync/sync-worker.js') },
  platform: 'node',
  preserveEntrySignatures: 'allow-extension',
  // Only our compiled modules are bundled: packages and node's own modules are loaded as they are.
  external: (id) => isBuiltin(id) || !(id.startsWith('.') || id.startsWith('/')),
  plugins: [
    {
      name: 'downstack-modules',
      moduleParsed(info) {
        imports.set(info.id, info.importedIds);
      },
      generateBundle(_options, bundle) {
        for (const chunk of Object.values(bundle))
          if (chunk.type === 'chunk')
            // Every real module (rolldown's own helpers have virtual ids), so a package bundled by mistake shows.
            manifest[chunk.fileName] = chunk.moduleIds
              .filter((id) => !id.startsWith('\0'))
              .map((id) => relative(ROOT, id))
              .sort();
      },
    },
  ],
  output: {
    dir: OUT,
    format: 'es',
    entryFileNames: '[name].js',
    chunkFileNames: '[name].js',
    // A module goes where its group says, not with the first module that imports it; the entry file then exports
    // what the other files import from it.
    codeSplitting: {
      includeDependenciesRecursively: false,
      groups: [{ debugName: 'cli and check', name: (id) => group(id), test: (id) => group(id) !== null }],
    },
  },
  logLevel: 'warn',
});
writeFileSync(join(OUT, 'modules.json'), `${JSON.stringify(manifest, null, 2)}\n`);
