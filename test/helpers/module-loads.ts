// Which modules a child process loads: `node --import` a load hook that names each one on stderr. A file of the bundle
// the CLI runs (dist/bundle/, scripts/build-bundle.js) stands for the compiled modules it holds, as its modules.json
// lists them: the tests say which of our modules a run loaded, however the build packs them.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const REGISTER = fileURLToPath(new URL('./module-loads/register.mjs', import.meta.url));

export interface ModuleLoads {
  status: number | null;
  stdout: string;
  stderr: string;
  /** Every module URL loaded, in order (a bundle file's modules in its place, in the order modules.json lists them). */
  modules: string[];
  /** The files of dist/bundle/ loaded, by name (`cli.js`, `check.js`, `npm-lock.js`). */
  bundleFiles: string[];
}

const BUNDLE = new URL('../../dist/bundle/', import.meta.url);
const ROOT = new URL('../../', import.meta.url);
let bundleModules: Record<string, string[]> | undefined;

/** The compiled modules a file of the bundle holds, as URLs. */
function modulesOf(file: string): string[] {
  bundleModules ??= JSON.parse(readFileSync(new URL('modules.json', BUNDLE), 'utf8')) as Record<string, string[]>;
  const held = bundleModules[file];
  if (!held) throw new Error(`dist/bundle/${file} is not in dist/bundle/modules.json: rebuild (npm run build)`);
  return held.map((path) => new URL(path, ROOT).href);
}

/** Runs node with `args` (a script and its arguments, or `-e` code) and lists the modules it loaded. */
export function moduleLoads(args: string[], env: NodeJS.ProcessEnv = {}): ModuleLoads {
  const result = spawnSync(process.execPath, ['--import', REGISTER, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...env },
  });
  const lines = result.stderr.split('\n');
  const loaded = lines.filter((line) => line.startsWith('loaded ')).map((line) => line.slice('loaded '.length));
  const bundleFiles = loaded.filter((url) => url.startsWith(BUNDLE.href)).map((url) => url.slice(BUNDLE.href.length));
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: lines.filter((line) => !line.startsWith('loaded ')).join('\n'),
    modules: loaded.flatMap((url) => (url.startsWith(BUNDLE.href) ? modulesOf(url.slice(BUNDLE.href.length)) : [url])),
    bundleFiles,
  };
}

/**
 * The loaded packages, by name (`zod`, `@npmcli/arborist`): from node_modules, or the one-file copy the build bundles
 * of some (dist/vendor/yaml.cjs is `yaml`).
 */
export function packagesLoaded(modules: string[]): Set<string> {
  const names = new Set<string>();
  for (const url of modules) {
    const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url) ?? /\/dist\/vendor\/([^/]+)\.cjs$/.exec(url);
    if (match?.[1]) names.add(match[1]);
  }
  return names;
}
