// netlify.toml (https://docs.netlify.com/build/functions/scheduled-functions/): `[functions."name"] schedule = "…"`,
// run by Netlify in UTC. Schedules set in a function's own source (`export const config`) are not read.
import { parse as parseToml } from 'smol-toml';
import { ParseError } from '../errors.js';
import { collectJobs, type JobCandidate } from '../jobs/found.js';
import { isRecord } from '../json-text.js';
import { lineOfString } from './config/text-lines.js';
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

/** TOML → object, or a `file:line` error (smol-toml reports the line). */
export function readToml(source: string, path: string): Record<string, unknown> {
  try {
    return parseToml(source) as Record<string, unknown>;
  } catch (error) {
    const line = (error as { line?: number }).line;
    const message = ((error as Error).message.split('\n')[0] ?? 'invalid TOML').replace(/^Invalid TOML document: /, '');
    throw new ParseError(path, line, `not valid TOML: ${message}`);
  }
}
