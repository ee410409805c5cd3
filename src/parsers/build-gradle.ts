// build.gradle and build.gradle.kts (https://docs.gradle.org/current/userguide/declaring_dependencies.html): the
// dependency declarations of a build script, read as text (a Groovy or Kotlin script is not evaluated): string
// notation `"group:name:version"`, map notation `group: …, name: …`, and version-catalog accessors (`libs.aws.s3`),
// resolved through gradle/libs.versions.toml when it sits beside the script or one level up.
import type { Dependency, DependencyKind, InputProblem } from '../model.js';
import { assertNoConflictMarkers } from './lockfile/lock-text.js';
import { declaredDependency, projectName, readBeside } from './packages/declared.js';
import { readVersionCatalog } from './gradle-version-catalog.js';
import { basename, besides, type FileAccess, type Parser, type ParseResult } from './types.js';

/** `implementation`, `api`, `testImplementation`, `kapt`, `debugImplementation`, `compile` (Gradle < 7)… */
const CONFIGURATION =
  /^\s*(implementation|api|compileOnly|compileOnlyApi|runtimeOnly|compile|runtime|annotationProcessor|kapt|ksp|testImplementation|testCompileOnly|testRuntimeOnly|testCompile|testRuntime|androidTestImplementation|testFixturesImplementation|testFixturesApi|integrationTestImplementation|[a-z]+Implementation|[a-z]+Api)\b\s*\(?\s*(.*)$/;
const STRING_NOTATION =
  /^(?:platform\s*\(|enforcedPlatform\s*\()?\s*["']([^"':\s]+):([^"':\s]+)(?::([^"'@\s]*))?(?:@\w+)?["']/;
const MAP_NOTATION =
  /group\s*[:=]\s*["']([^"']+)["']\s*,\s*(?:module|name)\s*[:=]\s*["']([^"']+)["'](?:\s*,\s*version\s*[:=]\s*["']([^"']+)["'])?/;
const CATALOG_ACCESSOR = /^(libs(?:\.[A-Za-z0-9_]+)+)/;

/** Catalog accessors (`aws.s3`, `bundles.aws`, normalised) → the modules they stand for. */
export type CatalogAccessors = Map<string, Array<{ name: string; version?: string }>>;

const accessorKey = (alias: string) => alias.toLowerCase().replace(/[._-]/g, '.');

export function parseBuildGradle(text: string, path: string, catalog?: CatalogAccessors): ParseResult {
  assertNoConflictMarkers(text, path, 'then gradle build');
  const errors: InputProblem[] = [];
  const dependencies: Dependency[] = [];
  const root = projectName(path);
  const seen = new Set<string>();
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] as string).replace(/\s\/\/.*$/, '');
    const declaration = CONFIGURATION.exec(line);
    if (!declaration) continue;
    const configuration = declaration[1] as string;
    const rest = declaration[2] as string;
    // platform(...) imports a BOM: it pins versions and adds no dependency of its own.
    if (/^(enforced)?[pP]latform\s*\(/.test(rest)) continue;
    const kind: DependencyKind = /^(test|androidTest|integrationTest|testFixtures)/.test(configuration)
      ? 'dev'
      : 'prod';
    let found: Array<{ name: string; version?: string }> = [];
    const string = STRING_NOTATION.exec(rest);
    const map = MAP_NOTATION.exec(rest);
    const accessor = CATALOG_ACCESSOR.exec(rest);
    if (string) found = [{ name: `${string[1]}:${string[2]}`, ...(string[3] ? { version: string[3] } : {}) }];
    else if (map) found = [{ name: `${map[1]}:${map[2]}`, ...(map[3] ? { version: map[3] } : {}) }];
    else if (accessor && catalog) {
      found = catalog.get(accessorKey((accessor[1] as string).slice(5))) ?? [];
      if (found.length === 0)
        errors.push({
          file: path,
          line: index + 1,
          message: `${accessor[1]} is not in gradle/libs.versions.toml; skipped`,
        });
    }
    for (const module of found) {
      if (seen.has(module.name)) continue;
      seen.add(module.name);
      const version = module.version && !module.version.includes('$') ? module.version : undefined;
      dependencies.push(
        declaredDependency('maven', root, path, {
          name: module.name,
          ...(version ? { version } : {}),
          line: index + 1,
          kind,
        }),
      );
    }
  }
  return { dependencies, errors };
}

/** As the scan reads it: version-catalog accessors resolved through gradle/libs.versions.toml, beside or one up. */
async function parseBuildGradleInProject(text: string, path: string, files: FileAccess): Promise<ParseResult> {
  const errors: InputProblem[] = [];
  let catalog: CatalogAccessors | undefined;
  if (/\blibs\.[A-Za-z]/.test(text)) {
    for (const relative of ['gradle/libs.versions.toml', '../gradle/libs.versions.toml']) {
      const catalogText = await readBeside(files, path, relative, errors);
      if (catalogText === undefined) continue;
      const catalogPath = besides(path, relative);
      const read = readVersionCatalog(catalogText, catalogPath);
      catalog = new Map(read.libraries.map((library) => [accessorKey(library.alias), [library]]));
      for (const [alias, members] of read.bundles)
        catalog.set(
          accessorKey(`bundles.${alias}`),
          members.flatMap((member) => catalog?.get(accessorKey(member)) ?? []),
        );
      errors.push(...read.errors);
      break;
    }
  }
  const result = parseBuildGradle(text, path, catalog);
  return { dependencies: result.dependencies, errors: [...errors, ...result.errors] };
}

export const buildGradleParser: Parser = {
  kind: 'build.gradle',
  matches: (path) => /^build\.gradle(\.kts)?$/.test(basename(path)),
  sniff: (text) =>
    /^\s*dependencies\s*\{/m.test(text) && /^\s*(implementation|api|testImplementation|compile)\s*[("']/m.test(text),
  parse: parseBuildGradleInProject,
};
