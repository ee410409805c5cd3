// Dockerfile (https://docs.docker.com/reference/dockerfile/): the images a build pulls — every `FROM` that is not an
// earlier stage or `scratch`, `COPY --from=<image>`, and the BuildKit front end a `# syntax=` directive names —
// with `ARG` defaults filled in. The registry of each image names its provider.
import type { Dependency, InputProblem } from '../model.js';
import { resolveImage } from './packages/image-reference.js';
import { basename, type Parser, type ParseResult } from './types.js';

export function parseDockerfile(text: string, path: string): ParseResult {
  const errors: InputProblem[] = [];
  const dependencies: Dependency[] = [];
  const args = new Map<string, string>();
  const stages = new Set<string>();
  const root = basename(path);
  const add = (image: string, line: number) =>
    dependencies.push({
      ecosystem: 'container-image',
      name: image,
      file: path,
      line,
      direct: true,
      via: [root, image],
    });
  const substitute = (value: string, line: number): string | undefined => {
    const resolved = resolveImage(value, args);
    if ('image' in resolved) return resolved.image;
    errors.push({
      file: path,
      line,
      message: `image "${value}" takes its registry from build argument ${resolved.unknown}, which has no default; skipped`,
    });
    return undefined;
  };

  const syntax = /^#\s*syntax\s*=\s*(\S+)/im.exec(text.split(/\r?\n(?!#)/)[0] ?? '');
  if (syntax) add(syntax[1] as string, 1);

  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const start = index + 1;
    let instruction = lines[index] as string;
    while (/\\\s*$/.test(instruction) && index + 1 < lines.length)
      instruction = `${instruction.replace(/\\\s*$/, ' ')}${(lines[++index] as string).replace(/^\s*#.*$/, '')}`;
    const [keyword = '', ...words] = instruction.trim().split(/\s+/);
    switch (keyword.toUpperCase()) {
      case 'ARG':
        for (const word of words) {
          const [name = '', value] = word.split(/=(.*)/s);
          if (value !== undefined) args.set(name, unquote(value));
        }
        break;
      case 'FROM': {
        const operands = words.filter((word) => !word.startsWith('--'));
        const reference = operands[0];
        if (!reference) {
          errors.push({ file: path, line: start, message: 'FROM without an image; skipped' });
          break;
        }
        const image = substitute(reference, start);
        const earlierStage = image !== undefined && stages.has(image.toLowerCase());
        if (operands[1]?.toUpperCase() === 'AS' && operands[2]) stages.add(operands[2].toLowerCase());
        if (image !== undefined && image.toLowerCase() !== 'scratch' && !earlierStage) add(image, start);
        break;
      }
      case 'COPY':
      case 'RUN': {
        // COPY --from=<stage|image> and RUN --mount=…,from=<stage|image> read from another image.
        for (const word of words) {
          const from = /^--from=(\S+)$/.exec(word)?.[1] ?? /^--mount=\S*\bfrom=([^,\s]+)/.exec(word)?.[1];
          if (!from || /^\d+$/.test(from) || stages.has(from.toLowerCase())) continue;
          const image = substitute(from, start);
          if (image && !stages.has(image.toLowerCase())) add(image, start);
        }
        break;
      }
    }
  }
  return { dependencies, errors };
}

function unquote(value: string): string {
  return value.replace(/^(["'])(.*)\1$/s, '$2');
}

export const dockerfileParser: Parser = {
  kind: 'Dockerfile',
  matches: (path) => /^(Dockerfile|Containerfile)([.-].+)?$|\.(Dockerfile|Containerfile)$/i.test(basename(path)),
  sniff: (text) => /^\s*FROM\s+\S+/im.test(text) && /^\s*(RUN|COPY|CMD|ENTRYPOINT|WORKDIR|ADD|ENV)\s/im.test(text),
  parse: parseDockerfile,
};
