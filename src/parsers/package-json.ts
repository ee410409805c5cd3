// package.json: https://docs.npmjs.com/cli/configuring-npm/package-json#dependencies
import { ParseError } from '../errors.js';
import { isRecord, lineOfKey, parseJsonText } from '../json-text.js';
import type { Dependency, DependencyKind } from '../model.js';
import { basename, type Parser, type ParseResult } from './types.js';

const SECTIONS: Array<[section: string, kind: DependencyKind]> = [
  ['dependencies', 'prod'],
  ['optionalDependencies', 'optional'],
  ['peerDependencies', 'peer'],
  ['devDependencies', 'dev'],
];

/** The name a manifest's root is shown as in `via` chains. */
export function manifestRootName(manifest: Record<string, unknown>, path: string): string {
  if (typeof manifest.name === 'string' && manifest.name !== '') return manifest.name;
  const dir = path.replace(/[\\/][^\\/]*$/, '');
  return dir && dir !== path ? basename(dir) : '(root)';
}

export function parsePackageJson(text: string, path: string): ParseResult {
  const manifest = parseJsonText(text, path);
  if (!isRecord(manifest)) throw new ParseError(path, 1, 'package.json must hold a JSON object');
  const root = manifestRootName(manifest, path);
  const errors: ParseResult['errors'] = [];
  const byName = new Map<string, Dependency>();

  for (const [section, kind] of SECTIONS) {
    const deps = manifest[section];
    if (deps === undefined) continue;
    const sectionLine = lineOfKey(text, section);
    if (!isRecord(deps)) {
      errors.push({
        file: path,
        line: sectionLine,
        message: `"${section}" must be an object of name → version range; skipped`,
      });
      continue;
    }
    const sectionOffset = text.indexOf(JSON.stringify(section));
    for (const [name, range] of Object.entries(deps)) {
      // `dependencies` wins over `optionalDependencies`/`peerDependencies`/`devDependencies` for the same name.
      if (byName.has(name)) continue;
      const line = lineOfKey(text, name, Math.max(0, sectionOffset));
      if (typeof range !== 'string') {
        errors.push({ file: path, line, message: `version of "${name}" in ${section} must be a string; skipped` });
        continue;
      }
      byName.set(name, {
        ecosystem: 'npm',
        name,
        version: range,
        file: path,
        line,
        direct: true,
        via: [root, name],
        kind,
      });
    }
  }
  return { dependencies: [...byName.values()], errors };
}

export const packageJsonParser: Parser = {
  kind: 'package.json',
  matches: (path) => basename(path) === 'package.json',
  sniff: (text) =>
    /^\s*\{/.test(text) && /"(dev|peer|optional)?[dD]ependencies"\s*:/.test(text) && !/"lockfileVersion"/.test(text),
  parse: parsePackageJson,
};
