// vercel.json (https://vercel.com/docs/cron-jobs): `crons[]` of `{path, schedule}`, run by Vercel in UTC.
import { collectJobs } from '../jobs/found.js';
import { isRecord, parseJsonText } from '../json-text.js';
import { lineOfString } from './config/text-lines.js';
import { basename, type Parser, type ParseResult } from './types.js';

export const vercelJsonParser: Parser = {
  kind: 'vercel.json',
  matches: (path) => basename(path) === 'vercel.json',
  sniff: () => false,
  parse: parseVercelJson,
  quietWhenEmpty: true,
};

export function parseVercelJson(source: string, path: string): ParseResult {
  const config = parseJsonText(source, path);
  const crons = isRecord(config) && Array.isArray(config.crons) ? config.crons : [];
  let from = 0;
  const candidates = crons.map((entry, index) => {
    const cron = isRecord(entry) ? entry : {};
    const route = typeof cron.path === 'string' ? cron.path : `crons[${index}]`;
    const line = typeof cron.schedule === 'string' ? lineOfString(source, cron.schedule, from) : undefined;
    if (line !== undefined) from = source.indexOf(JSON.stringify(cron.schedule), from) + 1;
    return { name: route, kind: 'vercel-cron' as const, file: path, line, schedule: cron.schedule };
  });
  return { dependencies: [], ...collectJobs(candidates) };
}
