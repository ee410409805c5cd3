// Compose files (https://docs.docker.com/reference/compose-file/services/#image): each service's `image`, with
// `${VAR:-default}` interpolation. The registry of each image names its provider.
import type { Dependency, InputProblem } from '../model.js';
import { child, entries, readYaml, text } from './config/yaml-nodes.js';
import { resolveImage } from './packages/image-reference.js';
import { basename, type Parser, type ParseResult } from './types.js';

export function parseDockerCompose(source: string, path: string): ParseResult {
  const yaml = readYaml(source, path);
  const errors: InputProblem[] = [...yaml.errors];
  const dependencies: Dependency[] = [];
  for (const document of yaml.documents) {
    for (const [service, definition] of entries(child(document, 'services'))) {
      const node = child(definition, 'image');
      const reference = text(node)?.trim();
      if (!reference) continue;
      const line = yaml.lineOf(node);
      const resolved = resolveImage(reference, new Map());
      if ('unknown' in resolved) {
        errors.push({
          file: path,
          ...(line ? { line } : {}),
          message: `service "${service}": image "${reference}" takes its registry from \${${resolved.unknown}}, which has no default here; skipped`,
        });
        continue;
      }
      dependencies.push({
        ecosystem: 'container-image',
        name: resolved.image,
        file: path,
        ...(line ? { line } : {}),
        direct: true,
        via: [`service ${service}`, resolved.image],
      });
    }
  }
  return { dependencies, errors };
}

export const dockerComposeParser: Parser = {
  kind: 'docker-compose',
  matches: (path) => /^(docker-)?compose([.-][\w.-]+)?\.ya?ml$/i.test(basename(path)),
  sniff: (source) =>
    /^services\s*:/m.test(source) && /^\s+image\s*:/m.test(source) && !/^\s*apiVersion\s*:/m.test(source),
  parse: parseDockerCompose,
};
