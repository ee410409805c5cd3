// vercel.json (https://vercel.com/docs/project-configuration): a project deployed on Vercel. The file exists only
// for Vercel, so it puts Vercel's edge and builds in the stack; `functions`, `crons` and `regions` (where the
// functions run: `fra1`, `iad1`) name its functions. `crons[]` of `{path, schedule}` run in UTC
// (https://vercel.com/docs/cron-jobs).
import { collectJobs } from '../jobs/found.js';
import { isRecord, parseJsonText } from '../json-text.js';
import type { Dependency } from '../model.js';
import { PLATFORM, platformDependency } from '../platforms.js';
import { lineOfString } from './config/text-lines.js';
import { basename, type Parser, type ParseResult } from './types.js';

/** Vercel region ids: three letters and a digit (`fra1`, `iad1`, `sfo1`). */
const REGION = /^[a-z]{3}\d$/;

export const vercelJsonParser: Parser = {
  kind: 'vercel.json',
  matches: (path) => basename(path) === 'vercel.json',
  sniff: () => false,
  parse: parseVercelJson,
};

export function parseVercelJson(source: string, path: string): ParseResult {
  const config = parseJsonText(source, path);
  if (!isRecord(config)) return { dependencies: [], errors: [{ file: path, message: 'not a JSON object; not read' }] };
  const crons = Array.isArray(config.crons) ? config.crons : [];
  let from = 0;
  const candidates = crons.map((entry, index) => {
    const cron = isRecord(entry) ? entry : {};
    const route = typeof cron.path === 'string' ? cron.path : `crons[${index}]`;
    const line = typeof cron.schedule === 'string' ? lineOfString(source, cron.schedule, from) : undefined;
    if (line !== undefined) from = source.indexOf(JSON.stringify(cron.schedule), from) + 1;
    return { name: route, kind: 'vercel-cron' as const, file: path, line, schedule: cron.schedule };
  });
  return { dependencies: platformOf(config, source, path), ...collectJobs(candidates) };
}

function platformOf(config: Record<string, unknown>, source: string, path: string): Dependency[] {
  const first = firstKeyLine(config, source);
  const dependencies = [
    platformDependency(PLATFORM.vercelEdge, path, first),
    platformDependency(PLATFORM.vercelBuilds, path, first),
  ];
  const regions = (Array.isArray(config.regions) ? config.regions : []).filter(
    (region): region is string => typeof region === 'string' && REGION.test(region),
  );
  const regionsLine = regions.length > 0 ? lineOfString(source, 'regions') : undefined;
  for (const region of regions)
    dependencies.push(platformDependency(PLATFORM.vercelFunctions, path, regionsLine, { region, via: 'regions' }));
  if (regions.length === 0)
    for (const key of ['functions', 'crons'])
      if (config[key] !== undefined) {
        dependencies.push(platformDependency(PLATFORM.vercelFunctions, path, lineOfString(source, key), { via: key }));
        break;
      }
  return dependencies;
}

/** The line of the file's first key (an empty `{}` still deploys on Vercel: its line is 1). */
function firstKeyLine(config: Record<string, unknown>, source: string): number {
  const key = Object.keys(config)[0];
  return (key !== undefined ? lineOfString(source, key) : undefined) ?? 1;
}
