// GitLab CI (https://docs.gitlab.com/ci/yaml/): the images of the pipeline's jobs and services (`image:` as a name or
// `{ name }`, at the top, under `default:` or in a job), hosted runner tags (`saas-linux-small-amd64`), and the
// configuration it includes from other hosts (`include: remote:`, CI/CD components).
import type { Dependency, InputProblem } from '../model.js';
import { child, entries, items, readYaml, text } from './config/yaml-nodes.js';
import { resolveImage } from './packages/image-reference.js';
import { basename, type Parser, type ParseResult } from './types.js';

/** Top-level keys that are settings, not jobs. */
const RESERVED = new Set([
  'stages',
  'variables',
  'workflow',
  'include',
  'before_script',
  'after_script',
  'cache',
  'spec',
]);

export function parseGitlabCi(source: string, path: string): ParseResult {
  const yaml = readYaml(source, path);
  const errors: InputProblem[] = [...yaml.errors];
  const dependencies: Dependency[] = [];
  const root = yaml.documents.at(-1);
  const file = basename(path);
  const variables = new Map<string, string>();
  for (const [name, value] of entries(child(root, 'variables'))) {
    const plain = text(value) ?? text(child(value, 'value'));
    if (plain !== undefined) variables.set(name, plain);
  }
  const push = (ecosystem: Dependency['ecosystem'], name: string, node: unknown, via: string) => {
    const line = yaml.lineOf(node);
    dependencies.push({ ecosystem, name, file: path, ...(line ? { line } : {}), direct: true, via: [via, name] });
  };
  const addImage = (spec: unknown, via: string) => {
    const node = child(spec, 'name') ?? spec;
    const reference = text(node)?.trim();
    if (!reference) return;
    const resolved = resolveImage(reference, variables);
    if ('image' in resolved) push('container-image', resolved.image, node, via);
    else {
      const line = yaml.lineOf(node);
      errors.push({
        file: path,
        ...(line ? { line } : {}),
        message: `${via}: image "${reference}" takes its registry from $${resolved.unknown}, which is not set in this file; skipped`,
      });
    }
  };
  const readJob = (job: unknown, via: string) => {
    if (child(job, 'image')) addImage(child(job, 'image'), via);
    for (const service of items(child(job, 'services'))) addImage(service, via);
    for (const tag of items(child(job, 'tags')))
      if (text(tag)?.startsWith('saas-')) push('ci-action', `runner:${text(tag)}`, tag, via);
  };
  readJob(root, file);
  readJob(child(root, 'default'), `${file} default`);
  for (const [name, job] of entries(root))
    if (!RESERVED.has(name) && name !== 'default' && !name.startsWith('.')) readJob(job, `job ${name}`);
  for (const [name, job] of entries(root)) if (name.startsWith('.')) readJob(job, `template ${name}`);

  const includes = items(child(root, 'include')).length > 0 ? items(child(root, 'include')) : [child(root, 'include')];
  for (const include of includes) {
    const remote = text(child(include, 'remote')) ?? (text(include)?.startsWith('http') ? text(include) : undefined);
    const component = text(child(include, 'component'));
    const host = remote
      ? /^https?:\/\/([^/:]+)/i.exec(remote)?.[1]
      : component
        ? /^([^/]+\.[^/]+)\//.exec(component)?.[1]
        : undefined;
    if (host && !host.startsWith('$')) push('domain', host.toLowerCase(), include, `${file} include`);
  }
  return { dependencies, errors };
}

export const gitlabCiParser: Parser = {
  kind: 'gitlab-ci',
  matches: (path) =>
    /^\.gitlab-ci\.ya?ml$/.test(basename(path)) || /(^|[/\\])\.gitlab[/\\]ci[/\\].+\.ya?ml$/.test(path),
  // Jobs with `script:`, and a top-level key only GitLab CI has; a GitHub workflow has `on:` and `jobs:` instead.
  sniff: (source) =>
    /^\s+script\s*:/m.test(source) &&
    /^(stages|include|default|variables|workflow|image|before_script)\s*:/m.test(source) &&
    !/^["']?on["']?\s*:/m.test(source),
  parse: parseGitlabCi,
};
