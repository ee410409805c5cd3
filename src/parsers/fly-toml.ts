// fly.toml (https://fly.io/docs/reference/configuration/): an app deployed on Fly.io. Fly serves every app at
// <app>.fly.dev through its proxy, and runs its Machines in `primary_region` (a three-letter region code) unless
// told otherwise, so the file puts Fly.io in the stack with a host and a region even when no code names it.
import type { Dependency } from '../model.js';
import { readToml } from './config/toml.js';
import { lineOfString } from './config/text-lines.js';
import { basename, type Parser, type ParseResult } from './types.js';

/** `fly.toml`, and the per-environment copies deployed with `fly deploy -c fly.staging.toml`. */
const FLY_TOML = /^fly(\.[\w-]+)?\.toml$/;
/** Fly app names: lowercase letters, digits and dashes (they become a DNS label). */
const APP_NAME = /^[a-z0-9][a-z0-9-]*$/;

export const flyTomlParser: Parser = {
  kind: 'fly.toml',
  matches: (path) => FLY_TOML.test(basename(path)),
  sniff: () => false,
  parse: parseFlyToml,
};

export function parseFlyToml(source: string, path: string): ParseResult {
  const config = readToml(source, path);
  const app = typeof config.app === 'string' ? config.app.trim() : '';
  const line = app ? lineOfString(source, config.app as string) : undefined;
  if (!app)
    return {
      dependencies: [],
      errors: [
        {
          file: path,
          message:
            'no app name (it is given at deploy time with -a); its fly.dev host is not known, so Fly.io is not counted',
        },
      ],
    };
  if (!APP_NAME.test(app))
    return {
      dependencies: [],
      errors: [{ file: path, ...(line ? { line } : {}), message: `app "${app}" is not a Fly app name; not counted` }],
    };
  const region = typeof config.primary_region === 'string' ? config.primary_region.trim().toLowerCase() : '';
  const host: Dependency = {
    ecosystem: 'domain',
    name: `${app}.fly.dev`,
    ...(region ? { region } : {}),
    file: path,
    ...(line ? { line } : {}),
    direct: true,
    via: [app, `${app}.fly.dev`],
  };
  return { dependencies: [host], errors: [] };
}
