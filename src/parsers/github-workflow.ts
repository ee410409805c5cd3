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
    // `container: image` or `container: {image}`, the same for each service, and `uses: docker://image` steps.
    const images: Array<{ image: string | undefined; node: unknown }> = [];
    const addImage = (node: unknown) => {
      const image = child(node, 'image');
      images.push(image ? { image: text(image), node: image } : { image: text(node), node });
    };
    if (child(job, 'container')) addImage(child(job, 'container'));
    for (const [, service] of entries(child(job, 'services'))) if (service) addImage(service);
    for (const step of items(child(job, 'steps'))) {
      const uses = child(step, 'uses');
      const image = text(uses)?.match(/^docker:\/\/(.+)$/)?.[1];
      if (image) images.push({ image, node: uses });
    }
    for (const { image, node } of images)
      if (image) touches.push(...imageRegistry(image, path, yaml.lineOf(node), name));
    for (const scalar of scalarsUnder(job, new Set(['uses', 'image'])))
      touches.push(...urlHosts(text(scalar) ?? '', path, yaml.lineOf(scalar), name));
  }
  return uniqueTouches(touches);
}
