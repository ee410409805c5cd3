// A Netlify function's own source (https://docs.netlify.com/build/functions/scheduled-functions/): a scheduled function
// says `export const config = { schedule: "@hourly" }`. Only that literal shape, in the default functions folder, is
// read; anything computed is a note, and other code is not looked at.
import { lineAt } from '../errors.js';
import { collectJobs } from '../jobs/found.js';
import { urlHosts } from '../jobs/touches.js';
import type { Parser, ParseResult } from './types.js';

/** `netlify/functions/<name>.ts` or `netlify/functions/<name>/<name or index>.ts` (js, mjs, mts, cjs, cts too). */
const FUNCTION_FILE = /(?:^|[/\\])netlify[/\\]functions[/\\](?:([^/\\]+)[/\\](?:\1|index)|([^/\\]+))\.[mc]?[jt]s$/;
const CONFIG_SCHEDULE = /export\s+const\s+config\b[^=]*=\s*\{[^}]*?\bschedule\s*:\s*(["'`])((?:(?!\1)[^\\\n])*)\1/;

export const netlifyFunctionParser: Parser = {
  kind: 'netlify-function',
  matches: (path) => FUNCTION_FILE.test(path),
  sniff: () => false,
  parse: parseNetlifyFunction,
  quietWhenEmpty: true,
};

export function parseNetlifyFunction(source: string, path: string): ParseResult {
  const match = CONFIG_SCHEDULE.exec(source);
  if (!match) return { dependencies: [], errors: [] };
  const file = FUNCTION_FILE.exec(path);
  const name = file?.[1] ?? file?.[2] ?? 'function';
  // A template literal with a placeholder keeps it, so the job reader notes it as computed.
  const schedule = match[2];
  const offset = match.index + match[0].lastIndexOf(match[2] ?? '');
  return {
    dependencies: [],
    ...collectJobs([
      {
        name,
        kind: 'netlify-scheduled-function',
        file: path,
        line: lineAt(source, offset),
        schedule,
        // The function is the job: the hosts its code calls are what it reaches.
        touches: urlHosts(source, path, undefined, name),
      },
    ]),
  };
}
