// Kubernetes manifests (https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/): any YAML file, one or
// many documents; each CronJob becomes a scheduled job (`spec.schedule`, `spec.timeZone`, a `CRON_TZ=` prefix) with
// the registries of its images and the hosts its containers name.
import { collectJobs, type JobCandidate } from '../jobs/found.js';
import { imageTouch, uniqueTouches, urlHosts } from '../jobs/touches.js';
import type { Dependency, InputProblem } from '../model.js';
import { child, childAt, items, plainData, readYaml, scalarsUnder, text, type YamlText } from './config/yaml-nodes.js';
import type { Parser, ParseResult } from './types.js';

/** Only files that name the kind are read as YAML at all: most YAML in a repository is something else. */
const CRONJOB_KIND = /^\s*kind\s*:\s*["']?CronJob["']?\s*$/m;
/** Workloads whose pods pull images (issue 19): each image's registry names a provider. */
const WORKLOAD_KIND = /^\s*kind\s*:\s*["']?(CronJob|Deployment|StatefulSet|DaemonSet|Job|Pod|ReplicaSet)["']?\s*$/m;

export const kubernetesManifestParser: Parser = {
  kind: 'kubernetes',
  matches: (path) => /\.ya?ml$/i.test(path),
  sniff: (source) => WORKLOAD_KIND.test(source) && /^\s*apiVersion\s*:/m.test(source),
  parse: parseKubernetesManifests,
  quietWhenEmpty: true,
};

export function parseKubernetesManifests(source: string, path: string): ParseResult {
  if (!WORKLOAD_KIND.test(source)) return { dependencies: [], errors: [] };
  const yaml = readYaml(source, path);
  if (yaml.errors.length > 0 && /\{\{/.test(source)) return { dependencies: [], errors: templateNotes(source, path) };
  // A file of another kind that only failed to parse is not this parser's business.
  const dependencies = workloadImages(yaml, path);
  if (!CRONJOB_KIND.test(source)) return { dependencies, errors: dependencies.length > 0 ? yaml.errors : [] };
  const candidates: JobCandidate[] = [];
  const notes: InputProblem[] = [];
  for (const document of yaml.documents) {
    // A chart's values.yaml may say `kind: CronJob` as a setting: only a batch/* object is a CronJob.
    if (text(child(document, 'kind')) !== 'CronJob' || !text(child(document, 'apiVersion'))?.startsWith('batch/'))
      continue;
    const name = text(childAt(document, 'metadata', 'name')) ?? 'unnamed CronJob';
    const spec = child(document, 'spec');
    const schedule = child(spec, 'schedule');
    const line = yaml.lineOf(schedule ?? document);
    if (text(child(spec, 'suspend')) === 'true') {
      notes.push({ file: path, line, message: `Kubernetes CronJob "${name}" is suspended (spec.suspend); not listed` });
      continue;
    }
    const zone = child(spec, 'timeZone');
    if (/^(CRON_)?TZ=/.test(text(schedule) ?? ''))
      notes.push({
        file: path,
        line,
        message: `Kubernetes CronJob "${name}": a time zone in spec.schedule (CRON_TZ=/TZ=) was never supported and newer clusters refuse to create such a CronJob; spec.timeZone is the supported field (listed in the zone it names)`,
      });
    candidates.push({
      name,
      kind: 'kubernetes-cronjob',
      file: path,
      line,
      schedule: text(schedule),
      ...(zone ? { timeZone: text(zone) ?? plainData(zone) } : {}),
      touches: podTouches(childAt(spec, 'jobTemplate', 'spec', 'template', 'spec'), yaml, path, name),
    });
  }
  const { jobs, errors } = collectJobs(candidates);
  // A file that is not valid YAML but names CronJob is reported; other YAML files are not this parser's business.
  return { dependencies, jobs, errors: [...yaml.errors, ...notes, ...errors] };
}

/** The images every workload's pod pulls (containers, init and ephemeral containers), at their own lines. */
function workloadImages(yaml: YamlText, path: string): Dependency[] {
  const dependencies: Dependency[] = [];
  for (const document of yaml.documents) {
    const kind = text(child(document, 'kind'));
    if (!kind || !text(child(document, 'apiVersion'))) continue;
    const spec = child(document, 'spec');
    const pod =
      kind === 'Pod'
        ? spec
        : kind === 'CronJob'
          ? childAt(spec, 'jobTemplate', 'spec', 'template', 'spec')
          : childAt(spec, 'template', 'spec');
    const workload = `${kind}/${text(childAt(document, 'metadata', 'name')) ?? 'unnamed'}`;
    for (const list of ['containers', 'initContainers', 'ephemeralContainers'])
      for (const container of items(child(pod, list))) {
        const image = child(container, 'image');
        const name = text(image)?.trim();
        const line = yaml.lineOf(image);
        if (name && !/[{}$]/.test(name))
          dependencies.push({
            ecosystem: 'container-image',
            name,
            file: path,
            ...(line ? { line } : {}),
            direct: true,
            via: [workload, name],
          });
      }
  }
  return dependencies;
}

/** Images of the pod's containers (init containers too) and hosts named in their commands, args and env. */
function podTouches(pod: unknown, yaml: YamlText, path: string, name: string): Dependency[] {
  const touches: Dependency[] = [];
  for (const container of [...items(child(pod, 'containers')), ...items(child(pod, 'initContainers'))]) {
    const image = child(container, 'image');
    touches.push(...imageTouch(text(image) ?? '', path, yaml.lineOf(image), name));
    for (const scalar of scalarsUnder(container, new Set(['image', 'name'])))
      touches.push(...urlHosts(text(scalar) ?? '', path, yaml.lineOf(scalar), name));
  }
  return uniqueTouches(touches);
}

/** A Helm chart's template is not YAML until it is rendered: one note per CronJob, at its schedule line. */
function templateNotes(source: string, path: string): InputProblem[] {
  const lines = source.split('\n');
  const notes: InputProblem[] = [];
  lines.forEach((line, index) => {
    if (!CRONJOB_KIND.test(line)) return;
    const scheduleAt = lines.findIndex((candidate, at) => at > index && /^\s*schedule\s*:/.test(candidate));
    notes.push({
      file: path,
      line: (scheduleAt >= 0 ? scheduleAt : index) + 1,
      message:
        'Kubernetes CronJob in a template ({{ }}): its schedule is known only once the chart is rendered; scan the output of `helm template` instead; not listed',
    });
  });
  return notes;
}
