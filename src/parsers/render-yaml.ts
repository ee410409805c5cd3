// Render Blueprints (https://render.com/docs/blueprint-spec): the services and databases Render runs for a
// repository. Each service puts its component in the stack (`web`, `pserv` and `worker` run as Web Services, a web
// service with `runtime: static` as a Static Site, `cron` as a Cron Job, `keyvalue`/`redis` as Key Value), in its
// `region` when the file states one; `databases[]` are Render Postgres. Cron jobs are also read as scheduled jobs,
// run by Render in UTC, with the hosts their commands name and the registry of a prebuilt image.
import { collectJobs, type JobCandidate } from '../jobs/found.js';
import { imageTouch, uniqueTouches, urlHosts } from '../jobs/touches.js';
import type { Dependency } from '../model.js';
import { PLATFORM, type PlatformTarget, platformDependency, uniquePlatforms } from '../platforms.js';
import { child, childAt, items, readYaml, scalarsUnder, text } from './config/yaml-nodes.js';
import { basename, type Parser, type ParseResult } from './types.js';

/** Render's regions as Blueprints spell them. */
const REGIONS = new Set(['oregon', 'ohio', 'virginia', 'frankfurt', 'singapore']);

export const renderYamlParser: Parser = {
  kind: 'render.yaml',
  matches: (path) => basename(path) === 'render.yaml',
  sniff: () => false,
  parse: parseRenderYaml,
  quietWhenEmpty: true,
};

export function parseRenderYaml(source: string, path: string): ParseResult {
  const yaml = readYaml(source, path);
  const root = yaml.documents[0];
  const candidates: JobCandidate[] = [];
  const dependencies: Dependency[] = [];
  const add = (target: PlatformTarget, node: unknown, name: string, region: string | undefined) =>
    dependencies.push(
      platformDependency(target, path, yaml.lineOf(node), {
        via: name,
        ...(region && REGIONS.has(region) ? { region } : {}),
      }),
    );
  for (const service of items(child(root, 'services'))) {
    const type = text(child(service, 'type'));
    const name = text(child(service, 'name')) ?? 'unnamed service';
    const region = text(child(service, 'region'))?.toLowerCase();
    const runtime = text(child(service, 'runtime')) ?? text(child(service, 'env'));
    const target = serviceTarget(type, runtime);
    if (target) add(target, service, name, region);
    if (type !== 'cron') continue;
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
  for (const database of items(child(root, 'databases'))) {
    const name = text(child(database, 'name')) ?? 'unnamed database';
    add(PLATFORM.renderPostgres, database, name, text(child(database, 'region'))?.toLowerCase());
  }
  // Render builds and deploys every service a Blueprint declares.
  const first = dependencies[0];
  if (first) dependencies.push(platformDependency(PLATFORM.renderDeploys, path, first.line));
  const { jobs, errors } = collectJobs(candidates);
  return { dependencies: uniquePlatforms(dependencies), jobs, errors: [...yaml.errors, ...errors] };
}

function serviceTarget(type: string | undefined, runtime: string | undefined): PlatformTarget | undefined {
  switch (type) {
    case 'web':
      return runtime === 'static' ? PLATFORM.renderStatic : PLATFORM.renderWeb;
    case 'pserv':
    case 'worker':
      return PLATFORM.renderWeb;
    case 'static':
      return PLATFORM.renderStatic;
    case 'cron':
      return PLATFORM.renderCron;
    case 'keyvalue':
    case 'redis':
      return PLATFORM.renderKeyValue;
    default:
      return undefined;
  }
}
