// Heroku's app.json (https://devcenter.heroku.com/articles/app-json-schema): how a Heroku Button or Review App
// creates the app. The name is shared with other tools (Expo keeps its config in an app.json with an `expo` key), so
// only a file with Heroku's own keys counts: `buildpacks`, `formation`, `addons` or `stack`.
import { isRecord, parseJsonText } from '../json-text.js';
import { lineOfString } from './config/text-lines.js';
import { PLATFORM, platformDependency, uniquePlatforms } from '../platforms.js';
import type { Dependency } from '../model.js';
import { basename, type Parser, type ParseResult } from './types.js';

const HEROKU_KEYS = ['formation', 'buildpacks', 'addons', 'stack'];
/** Add-on plans Heroku runs itself (`heroku-postgresql:essential-0`); the others are partners' services. */
const HEROKU_DATA = /^heroku-(postgresql|redis|kafka)(:|$)/;

export const herokuAppJsonParser: Parser = {
  kind: 'app.json',
  matches: (path) => basename(path) === 'app.json',
  sniff: () => false,
  parse: parseHerokuAppJson,
  quietWhenEmpty: true,
};

export function parseHerokuAppJson(source: string, path: string): ParseResult {
  const config = parseJsonText(source, path);
  if (!isRecord(config) || 'expo' in config) return { dependencies: [], errors: [] };
  const key = HEROKU_KEYS.find((name) => config[name] !== undefined);
  if (!key) return { dependencies: [], errors: [] };
  const dependencies: Dependency[] = [
    platformDependency(PLATFORM.herokuApps, path, lineOfString(source, key), { via: key }),
  ];
  const addons = Array.isArray(config.addons) ? config.addons : [];
  for (const addon of addons) {
    const plan =
      typeof addon === 'string' ? addon : isRecord(addon) && typeof addon.plan === 'string' ? addon.plan : '';
    if (HEROKU_DATA.test(plan))
      dependencies.push(platformDependency(PLATFORM.herokuData, path, lineOfString(source, plan), { via: plan }));
  }
  return { dependencies: uniquePlatforms(dependencies), errors: [] };
}
