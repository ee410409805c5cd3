// Cloudflare Workers configuration (https://developers.cloudflare.com/workers/configuration/cron-triggers/):
// `[triggers] crons = […]` in wrangler.toml, or `triggers.crons` in wrangler.json(c), per environment too; run in UTC.
import { parse as parseJsonc, type ParseError as JsoncError } from 'jsonc-parser';
import { lineAt, ParseError } from '../errors.js';
import { collectJobs, type JobCandidate } from '../jobs/found.js';
import { isRecord } from '../json-text.js';
import { lineOfString } from './config/text-lines.js';
import { readToml } from './config/toml.js';
import { basename, type Parser, type ParseResult } from './types.js';

export const wranglerConfigParser: Parser = {
  kind: 'wrangler',
  matches: (path) => /^wrangler\.(toml|json|jsonc)$/.test(basename(path)),
  sniff: () => false,
  parse: parseWranglerConfig,
  quietWhenEmpty: true,
};

export function parseWranglerConfig(source: string, path: string): ParseResult {
  const config = path.endsWith('.toml') ? readToml(source, path) : readJsonc(source, path);
  const worker = typeof config.name === 'string' ? config.name : basename(path);
  const candidates: JobCandidate[] = [];
  const add = (settings: unknown, name: string) => {
    const crons = isRecord(settings) && isRecord(settings.triggers) ? settings.triggers.crons : undefined;
    if (!Array.isArray(crons)) return;
    for (const cron of crons)
      candidates.push({
        name,
        kind: 'cloudflare-cron-trigger',
        file: path,
        line: typeof cron === 'string' ? lineOfString(source, cron) : undefined,
        schedule: cron,
      });
  };
  add(config, worker);
  if (isRecord(config.env))
    for (const [environment, settings] of Object.entries(config.env)) {
      const named =
        isRecord(settings) && typeof settings.name === 'string' ? settings.name : `${worker} (${environment})`;
      add(settings, named);
    }
  return { dependencies: [], ...collectJobs(candidates) };
}

function readJsonc(source: string, path: string): Record<string, unknown> {
  const errors: JsoncError[] = [];
  const value = parseJsonc(source, errors, { allowTrailingComma: true });
  const first = errors[0];
  if (first) throw new ParseError(path, lineAt(source, first.offset), 'not valid JSON');
  return isRecord(value) ? value : {};
}
