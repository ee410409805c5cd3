// go.mod (https://go.dev/ref/mod#go-mod-file): `require` lines and blocks; since Go 1.17 the file lists every module
// the build needs, and marks those no package of the main module imports with `// indirect`.
import { ParseError } from '../errors.js';
import type { Dependency, InputProblem } from '../model.js';
import { assertNoConflictMarkers } from './lockfile/lock-text.js';
import { basename, type Parser, type ParseResult } from './types.js';

const MODULE = /^module\s+("?)([^\s"]+)\1\s*(\/\/.*)?$/;
const REQUIREMENT = /^("?)([^\s"]+)\1\s+(v[^\s]+)\s*(\/\/.*)?$/;

export function parseGoMod(text: string, path: string): ParseResult {
  assertNoConflictMarkers(text, path, 'then go mod tidy');
  const errors: InputProblem[] = [];
  const required: Array<{ name: string; version: string; line: number; indirect: boolean }> = [];
  let module: string | undefined;
  let block: string | undefined;
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] as string).trim();
    if (!line || line.startsWith('//')) continue;
    if (block) {
      if (line === ')') block = undefined;
      else if (block === 'require') readRequirement(line, index + 1);
      continue;
    }
    const open = /^(\w+)\s*\($/.exec(line);
    if (open) {
      block = open[1] as string;
      continue;
    }
    const moduleLine = MODULE.exec(line);
    if (moduleLine) module = moduleLine[2];
    else if (line.startsWith('require ')) readRequirement(line.slice(8).trim(), index + 1);
    else if (!/^(go|toolchain|replace|exclude|retract|tool|godebug|ignore)\b/.test(line))
      errors.push({ file: path, line: index + 1, message: `not a go.mod directive: "${line.slice(0, 80)}"; skipped` });
  }
  if (block) errors.push({ file: path, line: lines.length, message: `the ${block} ( … ) block is never closed` });
  if (!module && required.length === 0) throw new ParseError(path, 1, 'a go.mod starts with a module line; none found');

  function readRequirement(line: string, at: number): void {
    const hit = REQUIREMENT.exec(line);
    if (!hit) {
      errors.push({
        file: path,
        line: at,
        message: `not a requirement (module path and version): "${line.slice(0, 80)}"; skipped`,
      });
      return;
    }
    required.push({
      name: hit[2] as string,
      version: hit[3] as string,
      line: at,
      indirect: /\/\/\s*indirect\b/.test(hit[4] ?? ''),
    });
  }

  const root = module ?? basename(path.replace(/[\\/][^\\/]*$/, ''));
  const dependencies: Dependency[] = required.map(({ name, version, line, indirect }) => ({
    ecosystem: 'go',
    name,
    version,
    file: path,
    line,
    direct: !indirect,
    // go.mod records no graph: an indirect module came through another requirement, which one go.mod does not say.
    via: indirect ? [root, '(another module)', name] : [root, name],
    kind: 'prod',
  }));
  return { dependencies, errors };
}

export const goModParser: Parser = {
  kind: 'go.mod',
  matches: (path) => basename(path) === 'go.mod',
  sniff: (text) => /^module\s+\S+/m.test(text) && /^(go\s+\d|require\s)/m.test(text),
  parse: parseGoMod,
};
