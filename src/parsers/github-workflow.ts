// GitHub Actions workflow files (https://docs.github.com/actions/writing-workflows/workflow-syntax-for-github-actions):
// `on.schedule[].cron` (always UTC) as scheduled jobs, with what the workflow's steps reach.
import { collectJobs, type JobCandidate } from '../jobs/found.js';
import { imageRegistry, uniqueTouches, urlHosts } from '../jobs/touches.js';
import type { Dependency } from '../model.js';
import { child, childAt, entries, items, readYaml, scalarsUnder, text, type YamlText } from './config/yaml-nodes.js';
import { basename, type Parser, type ParseResult } from './types.js';

export const githubWorkflowParser: Parser = {
  kind: 'github-workflow',
  matches: (path) => /(^|[/\\])\.github[/\\]workflows[/\\][^/\\]+\.ya?ml$/.test(path),
  sniff: (source) => /^["']?on["']?\s*:/m.test(source) && /^jobs\s*:/m.test(source),
  parse: parseGithubWorkflow,
  // A workflow without a schedule holds nothing this tool reads yet (issue 19 adds its actions and images).
  quietWhenEmpty: true,
};

export function parseGithubWorkflow(source: string, path: string): ParseResult {
  const yaml = readYaml(source, path);
  const root = yaml.documents[0];
  if (!root) return { dependencies: [], errors: yaml.errors };
  const name = text(child(root, 'name'))?.trim() || basename(path).replace(/\.ya?ml$/, '');
  const touches = workflowTouches(root, yaml, path, name);
  const candidates: JobCandidate[] = items(childAt(root, 'on', 'schedule')).map((entry) => {
    const cron = child(entry, 'cron');
    return {
      name,
      kind: 'github-actions',
      file: path,
      line: yaml.lineOf(cron ?? entry),
      schedule: text(cron),
      touches,
    };
  });
  const { jobs, errors } = collectJobs(candidates);
  return { dependencies: [], jobs, errors: [...yaml.errors, ...errors] };
}

/** Hosts in the jobs' commands and inputs, and the registries of container jobs, services and `docker://` steps. */
function workflowTouches(root: unknown, yaml: YamlText, path: string, name: string): Dependency[] {
  const touches: Dependency[] = [];
  for (const [, job] of entries(child(root, 'jobs'))) {
    const container = child(job, 'container');
    const images = [text(container) ?? text(child(container, 'image'))];
    for (const [, service] of entries(child(job, 'services')))
      images.push(text(service) ?? text(child(service, 'image')));
    for (const step of items(child(job, 'steps'))) {
      const uses = text(child(step, 'uses'));
      if (uses?.startsWith('docker://')) images.push(uses.slice('docker://'.length));
    }
    for (const image of images)
      if (image) touches.push(...imageRegistry(image, path, yaml.lineOf(container ?? job), name));
    for (const scalar of scalarsUnder(job, new Set(['uses', 'image'])))
      touches.push(...urlHosts(text(scalar) ?? '', path, yaml.lineOf(scalar), name));
  }
  return uniqueTouches(touches);
}
