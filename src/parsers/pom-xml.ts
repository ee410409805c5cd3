// pom.xml (https://maven.apache.org/pom.html#Dependencies): `<dependencies>` with `${property}` versions filled from
// `<properties>` and missing versions from `<dependencyManagement>`; `test` scope is dev, `<optional>` optional.
// Managed entries and imported BOMs only pin versions, so they are not dependencies themselves.
import { ParseError } from '../errors.js';
import { isRecord } from '../json-text.js';
import type { Dependency, DependencyKind, InputProblem } from '../model.js';
import { declaredDependency } from './packages/declared.js';
import { textLines } from './config/text-lines.js';
import { parseXmlText } from './packages/xml-text.js';
import { basename, type Parser, type ParseResult } from './types.js';

export function parsePomXml(text: string, path: string): ParseResult {
  const xml = parseXmlText(text, path, ['dependency', 'profile']);
  const project = xml.project;
  if (!isRecord(project)) throw new ParseError(path, 1, 'a pom.xml has a <project> root element; none found');
  const lines = textLines(text);
  const errors: InputProblem[] = [];
  const properties = new Map<string, string>();
  for (const [key, value] of Object.entries(isRecord(project.properties) ? project.properties : {}))
    if (typeof value === 'string') properties.set(key, value);
  const text_ = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const groupId = text_(project.groupId) ?? (isRecord(project.parent) ? text_(project.parent.groupId) : undefined);
  const artifactId = text_(project.artifactId);
  const version = text_(project.version) ?? (isRecord(project.parent) ? text_(project.parent.version) : undefined);
  if (groupId) properties.set('project.groupId', groupId);
  if (version) properties.set('project.version', version);
  const resolve = (value: string | undefined) =>
    value?.replace(/\$\{([^}]+)\}/g, (whole, key: string) => properties.get(key) ?? whole);

  const dependencyList = (holder: unknown) =>
    isRecord(holder) && isRecord(holder.dependencies) && Array.isArray(holder.dependencies.dependency)
      ? (holder.dependencies.dependency as unknown[])
      : [];
  const managed = new Map<string, string>();
  for (const entry of dependencyList(project.dependencyManagement))
    if (isRecord(entry) && typeof entry.version === 'string')
      managed.set(`${text_(entry.groupId)}:${text_(entry.artifactId)}`, entry.version);

  const root = artifactId
    ? `${groupId ? `${groupId}:` : ''}${artifactId}`
    : basename(path.replace(/[\\/][^\\/]*$/, ''));
  const dependencies: Dependency[] = [];
  const seen = new Set<string>();
  const dependenciesAt = Math.max(0, text.search(/<dependencies>/));
  const read = (list: unknown[]) => {
    for (const entry of list) {
      if (!isRecord(entry)) continue;
      const group = resolve(text_(entry.groupId));
      const artifact = resolve(text_(entry.artifactId));
      const line = artifact
        ? lines.find(`<artifactId>${text_(entry.artifactId)}</artifactId>`, dependenciesAt)
        : undefined;
      if (!group || !artifact) {
        errors.push({ file: path, line, message: 'a <dependency> needs a groupId and an artifactId; skipped' });
        continue;
      }
      const name = `${group}:${artifact}`;
      if (seen.has(name)) continue;
      seen.add(name);
      const scope = text_(entry.scope);
      const kind: DependencyKind = scope === 'test' ? 'dev' : text_(entry.optional) === 'true' ? 'optional' : 'prod';
      const pinned = resolve(text_(entry.version) ?? managed.get(`${text_(entry.groupId)}:${text_(entry.artifactId)}`));
      dependencies.push(
        declaredDependency('maven', root, path, {
          name,
          ...(pinned && !pinned.includes('${') ? { version: pinned } : {}),
          ...(line ? { line } : {}),
          kind,
        }),
      );
    }
  };
  read(dependencyList(project));
  const profiles =
    isRecord(project.profiles) && Array.isArray(project.profiles.profile) ? project.profiles.profile : [];
  // A profile's dependencies count: a build that activates it ships them.
  for (const profile of profiles) if (isRecord(profile)) read(dependencyList(profile));
  return { dependencies, errors };
}

export const pomXmlParser: Parser = {
  kind: 'pom.xml',
  matches: (path) => basename(path) === 'pom.xml',
  sniff: (text) => /<project[\s>]/.test(text) && /<modelVersion>|<artifactId>/.test(text),
  parse: parsePomXml,
};
