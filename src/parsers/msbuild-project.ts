// .NET project files (*.csproj, *.fsproj, *.vbproj; https://learn.microsoft.com/nuget/consume-packages/
// package-references-in-project-files): `<PackageReference Include="…" Version="…"/>` items, the version as an
// attribute or a child element; packages.config (the older format) lists `<package id="…" version="…"/>`.
import { ParseError } from '../errors.js';
import { isRecord } from '../json-text.js';
import type { Dependency, DependencyKind, InputProblem } from '../model.js';
import { declaredDependency, projectName } from './packages/declared.js';
import { textLines } from './config/text-lines.js';
import { parseXmlText } from './packages/xml-text.js';
import { basename, type Parser, type ParseResult } from './types.js';

const attribute = (item: Record<string, unknown>, name: string): string | undefined => {
  const value = item[`@${name}`] ?? item[name];
  return typeof value === 'string' ? value : undefined;
};

export function parseMsbuildProject(text: string, path: string): ParseResult {
  const xml = parseXmlText(text, path, ['ItemGroup', 'PackageReference']);
  const project = xml.Project;
  if (!isRecord(project)) throw new ParseError(path, 1, 'a project file has a <Project> root element; none found');
  const lines = textLines(text);
  const errors: InputProblem[] = [];
  const root = basename(path).replace(/\.(cs|fs|vb)proj$/, '');
  const dependencies: Dependency[] = [];
  const seen = new Set<string>();
  let from = 0;
  for (const group of Array.isArray(project.ItemGroup) ? project.ItemGroup : []) {
    if (!isRecord(group) || !Array.isArray(group.PackageReference)) continue;
    for (const item of group.PackageReference) {
      if (!isRecord(item)) continue;
      const name = attribute(item, 'Include') ?? attribute(item, 'Update');
      const at = name ? lines.offset(`"${name}"`, from) : -1;
      if (at >= 0) from = at;
      const line = at >= 0 ? lines.lineAt(at) : undefined;
      if (!name) {
        errors.push({ file: path, ...(line ? { line } : {}), message: '<PackageReference> without Include; skipped' });
        continue;
      }
      // `Update` changes an item declared elsewhere (Directory.Build.props): not a reference of this project.
      if (!attribute(item, 'Include') || seen.has(name.toLowerCase())) continue;
      seen.add(name.toLowerCase());
      // PrivateAssets="all" keeps a package out of what the project ships (analyzers, build tools).
      const kind: DependencyKind = /^all$/i.test(attribute(item, 'PrivateAssets') ?? '') ? 'dev' : 'prod';
      const version = attribute(item, 'Version') ?? attribute(item, 'VersionOverride');
      dependencies.push(
        declaredDependency('nuget', root, path, {
          name,
          ...(version ? { version } : {}),
          ...(line ? { line } : {}),
          kind,
        }),
      );
    }
  }
  return { dependencies, errors };
}

export function parsePackagesConfig(text: string, path: string): ParseResult {
  const xml = parseXmlText(text, path, ['package']);
  const packages = isRecord(xml.packages) ? xml.packages.package : undefined;
  if (!isRecord(xml.packages))
    throw new ParseError(path, 1, 'a packages.config has a <packages> root element; none found');
  const lines = textLines(text);
  const root = projectName(path);
  const dependencies: Dependency[] = [];
  for (const item of Array.isArray(packages) ? packages : []) {
    if (!isRecord(item)) continue;
    const name = attribute(item, 'id');
    if (!name) continue;
    const version = attribute(item, 'version');
    const line = lines.find(`"${name}"`);
    const kind: DependencyKind = attribute(item, 'developmentDependency') === 'true' ? 'dev' : 'prod';
    dependencies.push(
      declaredDependency('nuget', root, path, {
        name,
        ...(version ? { version } : {}),
        ...(line ? { line } : {}),
        kind,
      }),
    );
  }
  return { dependencies, errors: [] };
}

export const msbuildProjectParser: Parser = {
  kind: 'csproj',
  matches: (path) => /\.(cs|fs|vb)proj$/i.test(basename(path)),
  sniff: (text) => /<Project[\s>]/.test(text) && /<PackageReference\s/.test(text),
  parse: parseMsbuildProject,
};

export const packagesConfigParser: Parser = {
  kind: 'packages.config',
  matches: (path) => basename(path).toLowerCase() === 'packages.config',
  sniff: (text) => /<packages>/.test(text) && /<package\s+id="/.test(text),
  parse: parsePackagesConfig,
};
