// Gradle version catalogs, gradle/libs.versions.toml (https://docs.gradle.org/current/userguide/version_catalogs.html):
// `[libraries]` aliases for `group:name` coordinates, with versions inline or by `version.ref` into `[versions]`.
import { isRecord } from '../json-text.js';
import type { Dependency, InputProblem } from '../model.js';
import { declaredDependency, projectName } from './packages/declared.js';
import { textLines } from './config/text-lines.js';
import { readToml, tableAt } from './config/toml.js';
import { basename, type Parser, type ParseResult } from './types.js';

export interface CatalogLibrary {
  alias: string;
  name: string;
  version?: string;
  line?: number;
}

export interface VersionCatalog {
  libraries: CatalogLibrary[];
  /** `[bundles]`: an alias for several library aliases (`libs.bundles.aws`). */
  bundles: Map<string, string[]>;
  errors: InputProblem[];
}

export function readVersionCatalog(text: string, path: string): VersionCatalog {
  const toml = readToml(text, path);
  const lines = textLines(text);
  const errors: InputProblem[] = [];
  const versions = tableAt(toml, 'versions') ?? {};
  const versionOf = (spec: unknown): string | undefined => {
    if (typeof spec === 'string') return spec;
    if (!isRecord(spec)) return undefined;
    if (typeof spec.ref === 'string') return versionOf(versions[spec.ref]);
    return typeof spec.strictly === 'string'
      ? spec.strictly
      : typeof spec.require === 'string'
        ? spec.require
        : undefined;
  };
  const librariesAt = Math.max(0, lines.offset('[libraries]'));
  const libraries: CatalogLibrary[] = [];
  for (const [alias, spec] of Object.entries(tableAt(toml, 'libraries') ?? {})) {
    const line = lines.find(`\n${alias}`, librariesAt);
    let coordinates: string | undefined;
    let version: string | undefined;
    if (typeof spec === 'string') {
      const [group, name, pinned] = spec.split(':');
      if (group && name) coordinates = `${group}:${name}`;
      version = pinned;
    } else if (isRecord(spec)) {
      if (typeof spec.module === 'string') coordinates = spec.module;
      else if (typeof spec.group === 'string' && typeof spec.name === 'string')
        coordinates = `${spec.group}:${spec.name}`;
      version = versionOf(spec.version);
    }
    if (!coordinates) {
      errors.push({
        file: path,
        ...(line ? { line: line + 1 } : {}),
        message: `library "${alias}" names no module; skipped`,
      });
      continue;
    }
    libraries.push({ alias, name: coordinates, ...(version ? { version } : {}), ...(line ? { line: line + 1 } : {}) });
  }
  const bundles = new Map<string, string[]>();
  for (const [alias, members] of Object.entries(tableAt(toml, 'bundles') ?? {}))
    if (Array.isArray(members))
      bundles.set(
        alias,
        members.filter((member) => typeof member === 'string'),
      );
  return { libraries, bundles, errors };
}

export function parseVersionCatalog(text: string, path: string): ParseResult {
  const { libraries, errors } = readVersionCatalog(text, path);
  // A catalog lists what builds may use; the project is the directory that holds gradle/.
  const root = projectName(path.replace(/[\\/]gradle[\\/][^\\/]*$/, '/x'));
  const dependencies: Dependency[] = libraries.map((library) => declaredDependency('maven', root, path, library));
  return { dependencies, errors };
}

export const gradleVersionCatalogParser: Parser = {
  kind: 'libs.versions.toml',
  matches: (path) => /\.versions\.toml$/.test(basename(path)),
  sniff: (text) => /^\[libraries\]/m.test(text) && /^\[versions\]/m.test(text),
  parse: parseVersionCatalog,
};
