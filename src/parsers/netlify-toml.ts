// netlify.toml (https://docs.netlify.com/build/configure-builds/file-based-configuration/): a site built and served
// by Netlify. The file exists only for Netlify, so it puts Netlify's CDN and builds in the stack, its functions when
// `[functions]` is there and its edge functions for `[[edge_functions]]`. Scheduled functions
// (https://docs.netlify.com/build/functions/scheduled-functions/): `[functions."name"] schedule = "…"`, run in UTC;
// schedules set in a function's own source (`export const config`) are read by netlify-function.ts.
import { lineAt } from '../errors.js';
import { collectJobs, type JobCandidate } from '../jobs/found.js';
import { isRecord } from '../json-text.js';
import { PLATFORM, platformDependency } from '../platforms.js';
import { lineOfString } from './config/text-lines.js';
import { readToml } from './config/toml.js';
import { basename, type Parser, type ParseResult } from './types.js';

export const netlifyTomlParser: Parser = {
  kind: 'netlify.toml',
  matches: (path) => basename(path) === 'netlify.toml',
  sniff: () => false,
  parse: parseNetlifyToml,
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
  // The table's own header (`[build]`) before a sub-table's (`[build.environment]`); line 1 when neither is written.
  const tableLine = (table: string) => {
    const match =
      new RegExp(`^[ \\t]*\\[{1,2}${table}\\]`, 'm').exec(source) ??
      new RegExp(`^[ \\t]*\\[{1,2}${table}\\.`, 'm').exec(source);
    return match ? lineAt(source, match.index) : 1;
  };
  const site = tableLine('build');
  const dependencies = [
    platformDependency(PLATFORM.netlifyCdn, path, site),
    platformDependency(PLATFORM.netlifyBuilds, path, site),
  ];
  if (config.functions !== undefined)
    dependencies.push(
      platformDependency(PLATFORM.netlifyFunctions, path, tableLine('functions'), { via: 'functions' }),
    );
  if (config.edge_functions !== undefined)
    dependencies.push(
      platformDependency(PLATFORM.netlifyEdgeFunctions, path, tableLine('edge_functions'), { via: 'edge_functions' }),
    );
  return { dependencies, ...collectJobs(candidates) };
}
