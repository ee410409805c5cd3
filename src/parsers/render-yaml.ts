// Render Blueprints (https://render.com/docs/blueprint-spec): `services[]` of `type: cron` with a `schedule`, run by
// Render in UTC, with the hosts their commands name and the registry of a prebuilt image.
import { collectJobs, type JobCandidate } from '../jobs/found.js';
import { imageTouch, uniqueTouches, urlHosts } from '../jobs/touches.js';
import { child, childAt, items, readYaml, scalarsUnder, text } from './config/yaml-nodes.js';
import { basename, type Parser, type ParseResult } from './types.js';

export const renderYamlParser: Parser = {
  kind: 'render.yaml',
  matches: (path) => basename(path) === 'render.yaml',
  sniff: () => false,
  parse: parseRenderYaml,
  quietWhenEmpty: true,
};

export function parseRenderYaml(source: string, path: string): ParseResult {
  const yaml = readYaml(source, path);
  const candidates: JobCandidate[] = [];
  for (const service of items(child(yaml.documents[0], 'services'))) {
    if (text(child(service, 'type')) !== 'cron') continue;
    const name = text(child(service, 'name')) ?? 'unnamed cron job';
    const schedule = child(service, 'schedule');
    const image = childAt(service, 'image', 'url');
    const touches = [
      ...imageTouch(text(image) ?? '', path, yaml.lineOf(image), name),
      ...['buildCommand', 'startCommand', 'dockerCommand'].flatMap((key) =>
        scalarsUnder(child(service, key)).flatMap((node) => urlHosts(text(node) ?? '', path, yaml.lineOf(node), name)),
      ),
    ];
    candidates.push({
      name,
      kind: 'render-cron-job',
      file: path,
      line: yaml.lineOf(schedule ?? service),
      schedule: text(schedule),
      touches: uniqueTouches(touches),
    });
  }
  const { jobs, errors } = collectJobs(candidates);
  return { dependencies: [], jobs, errors: [...yaml.errors, ...errors] };
}
