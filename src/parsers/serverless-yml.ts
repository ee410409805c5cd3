// Serverless Framework services (https://www.serverless.com/framework/docs/providers/aws/events/schedule):
// `functions.<name>.events[].schedule`, a rate()/cron() string or `{rate: […], enabled, timezone}`, on AWS.
import { collectJobs, type JobCandidate } from '../jobs/found.js';
import { uniqueTouches, urlHosts } from '../jobs/touches.js';
import type { InputProblem } from '../model.js';
import { child, childAt, entries, items, readYaml, scalarsUnder, text } from './config/yaml-nodes.js';
import { basename, type Parser, type ParseResult } from './types.js';

export const serverlessYmlParser: Parser = {
  kind: 'serverless.yml',
  matches: (path) => /^serverless\.ya?ml$/.test(basename(path)),
  sniff: () => false,
  parse: parseServerlessYml,
  quietWhenEmpty: true,
};

export function parseServerlessYml(source: string, path: string): ParseResult {
  const yaml = readYaml(source, path);
  const root = yaml.documents[0];
  const provider = text(childAt(root, 'provider', 'name')) ?? text(child(root, 'provider'));
  if (provider !== undefined && provider !== 'aws') return { dependencies: [], errors: yaml.errors };
  const candidates: JobCandidate[] = [];
  const notes: InputProblem[] = [];
  for (const [name, fn] of entries(child(root, 'functions'))) {
    const touches = uniqueTouches(
      scalarsUnder(child(fn, 'environment')).flatMap((node) =>
        urlHosts(text(node) ?? '', path, yaml.lineOf(node), name),
      ),
    );
    for (const event of items(child(fn, 'events'))) {
      const schedule = child(event, 'schedule');
      if (!schedule) continue;
      const settings = text(schedule) === undefined ? schedule : undefined;
      if (text(child(settings, 'enabled')) === 'false') {
        notes.push({
          file: path,
          line: yaml.lineOf(schedule),
          message: `Serverless Framework schedule "${name}" is disabled (enabled: false); not listed`,
        });
        continue;
      }
      const rates = settings ? child(settings, 'rate') : schedule;
      const zone = child(settings, 'timezone');
      for (const rate of text(rates) === undefined ? items(rates) : [rates])
        candidates.push({
          name,
          kind: 'serverless-schedule',
          file: path,
          line: yaml.lineOf(rate),
          schedule: text(rate),
          ...(zone ? { timeZone: text(zone) } : {}),
          touches,
        });
    }
  }
  const { jobs, errors } = collectJobs(candidates);
  return { dependencies: [], jobs, errors: [...yaml.errors, ...notes, ...errors] };
}
