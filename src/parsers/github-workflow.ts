// GitHub Actions workflow files (https://docs.github.com/actions/writing-workflows/workflow-syntax-for-github-actions):
// `on.schedule[].cron` (always UTC) as scheduled jobs, with what the workflow's steps reach.
import { collectJobs, type JobCandidate } from '../jobs/found.js';
import { imageTouch, uniqueTouches, urlHosts } from '../jobs/touches.js';
import type { Dependency } from '../model.js';
import { child, childAt, entries, items, readYaml, scalarsUnder, text, type YamlText } from './config/yaml-nodes.js';
import { basename, type Parser, type ParseResult } from './types.js';

export const githubWorkflowParser: Parser = {
  kind: 'github-workflow',
  matches: (path) => /(^|[/\\])\.github[/\\]workflows[/\\][^/\\]+\.ya?ml$/.test(path),
  sniff: (source) => /^["']?on["']?\s*:/m.test(source) && /^jobs\s*:/m.test(source),
  parse: parseGithubWorkflow,
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
  return { dependencies: workflowDependencies(root, yaml, path), jobs, errors: [...yaml.errors, ...errors] };
}

/**
 * What the workflow itself runs on: the actions its steps and jobs use (`actions/checkout@v4`, a reusable workflow),
 * the hosted runners it asks for (`runs-on: ubuntu-latest`, also through a matrix), and the images of container jobs,
 * services and `docker://` steps. Local actions (`./…`) and self-hosted runners name no provider.
 */
function workflowDependencies(root: unknown, yaml: YamlText, path: string): Dependency[] {
  const workflow = basename(path);
  const out: Dependency[] = [];
  const seen = new Set<string>();
  const add = (ecosystem: 'ci-action' | 'container-image', name: string, node: unknown, version?: string) => {
    const key = `${ecosystem}\u0000${name}\u0000${yaml.lineOf(node)}`;
    if (seen.has(key)) return;
    seen.add(key);
    const line = yaml.lineOf(node);
    out.push({
      ecosystem,
      name,
      ...(version ? { version } : {}),
      file: path,
      ...(line ? { line } : {}),
      direct: true,
      via: [workflow, name],
    });
  };
  const addUses = (node: unknown) => {
    const uses = text(node)?.trim();
    if (!uses || uses.startsWith('./') || uses.includes('${{')) return;
    const image = /^docker:\/\/(.+)$/.exec(uses)?.[1];
    if (image) return add('container-image', image, node);
    const [name = '', ref] = uses.split('@');
    if (/^[\w.-]+\/[\w.-]+/.test(name)) add('ci-action', name, node, ref);
  };
  for (const [, job] of entries(child(root, 'jobs'))) {
    addUses(child(job, 'uses'));
    for (const step of items(child(job, 'steps'))) {
      // A registry login names its registry in `with.registry` (Docker Hub when it names none), often through the
      // workflow's or job's `env` (`registry: ${{ env.REGISTRY }}`); a registry no env gives is no provider's.
      const written = /^docker\/login-action@/i.test(text(child(step, 'uses')) ?? '')
        ? text(childAt(step, 'with', 'registry'))?.trim()
        : undefined;
      const registry = written
        ? fromEnv(written, [child(step, 'env'), child(job, 'env'), child(root, 'env')])
        : undefined;
      if (registry && !registry.includes('${{')) add('container-image', `${registry.replace(/\/+$/, '')}/`, step);
      else if (!written) addUses(child(step, 'uses'));
    }
    for (const { label, node } of runnerLabels(job)) add('ci-action', `runner:${label}`, node);
    const container = child(job, 'container');
    const containerImage = child(container, 'image') ?? container;
    if (text(containerImage)) add('container-image', text(containerImage) as string, containerImage);
    for (const [, service] of entries(child(job, 'services'))) {
      const image = child(service, 'image') ?? service;
      if (text(image)) add('container-image', text(image) as string, image);
    }
  }
  return out.filter((dependency) => !/\$\{\{/.test(dependency.name));
}

/** `${{ env.NAME }}` (alone or inside a value) replaced by the nearest `env` that sets NAME; other expressions stay. */
function fromEnv(value: string, scopes: unknown[]): string {
  return value.replace(/\$\{\{\s*env\.([A-Za-z_][\w-]*)\s*\}\}/g, (expression, name: string) => {
    for (const scope of scopes) {
      const set = text(child(scope, name));
      if (set !== undefined && !set.includes('${{')) return set.trim();
    }
    return expression;
  });
}

/** `runs-on` as a label, a list, `{ group, labels }`, or `${{ matrix.KEY }}` over the job's matrix values. */
function runnerLabels(job: unknown): Array<{ label: string; node: unknown }> {
  const runsOn = child(job, 'runs-on');
  const nodes =
    items(runsOn).length > 0 ? items(runsOn) : child(runsOn, 'labels') ? items(child(runsOn, 'labels')) : [runsOn];
  const labels: Array<{ label: string; node: unknown }> = [];
  for (const node of nodes) {
    const value = text(node)?.trim();
    if (!value) continue;
    const matrixKey = /^\$\{\{\s*matrix\.([\w-]+)\s*\}\}$/.exec(value)?.[1];
    if (matrixKey) {
      const matrix = childAt(job, 'strategy', 'matrix');
      for (const option of items(child(matrix, matrixKey)))
        if (text(option)) labels.push({ label: text(option) as string, node: option });
      for (const include of items(child(matrix, 'include'))) {
        const option = child(include, matrixKey);
        if (text(option)) labels.push({ label: text(option) as string, node: option });
      }
    } else labels.push({ label: value, node });
  }
  // A self-hosted runner's other labels describe the team's own machine, not a GitHub-hosted one.
  return labels.some(({ label }) => label === 'self-hosted') ? [] : labels;
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
    for (const { image, node } of images) if (image) touches.push(...imageTouch(image, path, yaml.lineOf(node), name));
    for (const scalar of scalarsUnder(job, new Set(['uses', 'image'])))
      touches.push(...urlHosts(text(scalar) ?? '', path, yaml.lineOf(scalar), name));
  }
  return uniqueTouches(touches);
}
