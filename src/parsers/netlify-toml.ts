// netlify.toml (https://docs.netlify.com/build/functions/scheduled-functions/): `[functions."name"] schedule = "…"`,
// run by Netlify in UTC. Schedules set in a function's own source (`export const config`) are not read.
import { collectJobs, type JobCandidate } from '../jobs/found.js';
import { isRecord } from '../json-text.js';
import { lineOfString } from './config/text-lines.js';
import { readToml } from './config/toml.js';
import { basename, type Parser, type ParseResult } from './types.js';

export const netlifyTomlParser: Parser = {
  kind: 'netlify.toml',
  matches: (path) => basename(path) === 'netlify.toml',
  sniff: () => false,
  parse: parseNetlifyToml,
  quietWhenEmpty: true,
};

export function parseNetlifyToml(source: string, path: string): ParseResult {
  const config = readToml(source, path);
  const functions = isRecord(config.functions) ? config.functions : {};
  const candidates: JobCandidate[] = [];
  for (const [name, settings] of Object.entries(functions)) {
    // `[functions]` also holds settings for every function (`directory`, `node_bundler`): only tables name one.
    if (!isRecord(settings) || !('schedule' in settings)) continue;
    const schedule = settings.schedule;
    candidates.push({
      name,
      kind: 'netlify-scheduled-function',
      file: path,
      line: typeof schedule === 'string' ? lineOfString(source, schedule) : undefined,
      schedule,
    });
  }
  return { dependencies: [], ...collectJobs(candidates) };
}
