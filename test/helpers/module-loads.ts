// Which modules a child process loads: `node --import` a load hook that names each one on stderr.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REGISTER = fileURLToPath(new URL('./module-loads/register.mjs', import.meta.url));

export interface ModuleLoads {
  status: number | null;
  stdout: string;
  stderr: string;
  /** Every module URL loaded, in order. */
  modules: string[];
}

/** Runs node with `args` (a script and its arguments, or `-e` code) and lists the modules it loaded. */
export function moduleLoads(args: string[], env: NodeJS.ProcessEnv = {}): ModuleLoads {
  const result = spawnSync(process.execPath, ['--import', REGISTER, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...env },
  });
  const lines = result.stderr.split('\n');
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: lines.filter((line) => !line.startsWith('loaded ')).join('\n'),
    modules: lines.filter((line) => line.startsWith('loaded ')).map((line) => line.slice('loaded '.length)),
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
