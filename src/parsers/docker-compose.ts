// Compose files (https://docs.docker.com/reference/compose-file/services/#image): each service's `image`, with
// `${VAR:-default}` interpolation from the `.env` file beside it (https://docs.docker.com/compose/how-tos/
// environment-variables/variable-interpolation/#env-file). The registry of each image names its provider.
import type { Dependency, InputProblem } from '../model.js';
import { child, entries, readYaml, text } from './config/yaml-nodes.js';
import { readBeside } from './packages/declared.js';
import { resolveImage } from './packages/image-reference.js';
import { basename, type FileAccess, type Parser, type ParseResult } from './types.js';

export function parseDockerCompose(
  source: string,
  path: string,
  env: ReadonlyMap<string, string> = new Map(),
): ParseResult {
  const yaml = readYaml(source, path);
  const errors: InputProblem[] = [...yaml.errors];
  const dependencies: Dependency[] = [];
  for (const document of yaml.documents) {
    for (const [service, definition] of entries(child(document, 'services'))) {
      const node = child(definition, 'image');
      const reference = text(node)?.trim();
      if (!reference) continue;
      const line = yaml.lineOf(node);
      const resolved = resolveImage(reference, env);
      if ('unknown' in resolved) {
        errors.push({
          file: path,
          ...(line ? { line } : {}),
          message: `service "${service}": image "${reference}" takes its registry from \${${resolved.unknown}}, which neither .env nor a default sets; skipped`,
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

/** `.env` lines: `KEY=value`, `export KEY=value`, quotes around the value, `#` comments. */
export function readDotEnv(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const hit = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!hit) continue;
    const raw = (hit[2] as string).trim();
    const quoted = /^(["'])(.*)\1$/.exec(raw);
    values.set(hit[1] as string, quoted ? (quoted[2] as string) : raw.replace(/\s+#.*$/, ''));
  }
  return values;
}

/** As the scan reads it: with the `.env` beside it, as docker compose reads it. */
async function parseDockerComposeInProject(source: string, path: string, files: FileAccess): Promise<ParseResult> {
  const problems: InputProblem[] = [];
  const env = await readBeside(files, path, '.env', problems);
  const result = parseDockerCompose(source, path, env === undefined ? new Map() : readDotEnv(env));
  return { ...result, errors: [...problems, ...result.errors] };
}

export const dockerComposeParser: Parser = {
  kind: 'docker-compose',
  matches: (path) => /^(docker-)?compose([.-][\w.-]+)?\.ya?ml$/i.test(basename(path)),
  sniff: (source) =>
    /^services\s*:/m.test(source) && /^\s+image\s*:/m.test(source) && !/^\s*apiVersion\s*:/m.test(source),
  parse: parseDockerComposeInProject,
};
