// Azure Functions bindings (https://learn.microsoft.com/azure/azure-functions/functions-bindings-timer): a
// `<function>/function.json` whose `timerTrigger` binding has a six-field NCRONTAB schedule (UTC unless the app sets
// WEBSITE_TIME_ZONE, which lives in the app's settings, not here).
import { collectJobs, type JobCandidate } from '../jobs/found.js';
import { isRecord, lineOfKey, parseJsonText } from '../json-text.js';
import { lineOfString } from './config/text-lines.js';
import { basename, type Parser, type ParseResult } from './types.js';

export const azureFunctionJsonParser: Parser = {
  kind: 'function.json',
  matches: (path) => basename(path) === 'function.json',
  sniff: () => false,
  parse: parseAzureFunctionJson,
  quietWhenEmpty: true,
};

export function parseAzureFunctionJson(source: string, path: string): ParseResult {
  const config = parseJsonText(source, path);
  const bindings = isRecord(config) && Array.isArray(config.bindings) ? config.bindings : [];
  const folder = path.replace(/\\/g, '/').split('/').slice(-2, -1)[0] ?? 'function';
  const candidates: JobCandidate[] = bindings
    .filter((binding) => isRecord(binding) && String(binding.type).toLowerCase() === 'timertrigger')
    .map((binding) => {
      const schedule = (binding as Record<string, unknown>).schedule;
      return {
        name: folder,
        kind: 'azure-functions-timer',
        file: path,
        line:
          (typeof schedule === 'string' ? lineOfString(source, schedule) : undefined) ?? lineOfKey(source, 'bindings'),
        schedule,
      };
    });
  return { dependencies: [], ...collectJobs(candidates) };
}
