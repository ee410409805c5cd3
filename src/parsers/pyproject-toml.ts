// pyproject.toml: PEP 621 `[project]` dependencies and optional groups (https://packaging.python.org/en/latest/
// specifications/pyproject-toml/), PEP 735 `[dependency-groups]`, Poetry's `[tool.poetry]` tables and groups, and
// uv's and PDM's dev dependencies.
import { isRecord } from '../json-text.js';
import type { Dependency, DependencyKind, InputProblem } from '../model.js';
import { declaredDependency } from './packages/declared.js';
import { textLines } from './config/text-lines.js';
import { normalizePythonName, parseRequirement } from './packages/pep508.js';
import { readToml, tableAt } from './config/toml.js';
import { basename, type Parser, type ParseResult } from './types.js';

export interface PythonDeclaration {
  name: string;
  version?: string;
  kind: DependencyKind;
  line?: number;
}

export interface PyprojectRead {
  root: string;
  declarations: PythonDeclaration[];
  errors: InputProblem[];
}

/** Every dependency the project declares, with its kind; `python` (Poetry's interpreter constraint) is not one. */
export function readPyproject(text: string, path: string): PyprojectRead {
  const toml = readToml(text, path);
  const lines = textLines(text);
  const errors: InputProblem[] = [];
  const declarations: PythonDeclaration[] = [];
  const poetry = tableAt(toml, 'tool.poetry');
  const project = tableAt(toml, 'project');
  const root =
    (typeof project?.name === 'string' && project.name) ||
    (typeof poetry?.name === 'string' && poetry.name) ||
    basename(path.replace(/[\\/][^\\/]*$/, '')) ||
    '(root)';

  const fromList = (list: unknown, kind: DependencyKind, where: string, header: string) => {
    if (list === undefined) return;
    const from = Math.max(0, lines.offset(header));
    if (!Array.isArray(list)) {
      errors.push({
        file: path,
        line: lines.find(header),
        message: `${where} must be a list of requirements; skipped`,
      });
      return;
    }
    for (const item of list) {
      if (isRecord(item)) continue; // `{ include-group = "test" }` names another group, not a package
      const requirement = typeof item === 'string' ? parseRequirement(item) : undefined;
      // The requirement as written, whichever quotes the file uses.
      const line = typeof item === 'string' ? lines.find(item, from) : undefined;
      if (!requirement) {
        errors.push({ file: path, line, message: `${where}: not a requirement: ${JSON.stringify(item)}; skipped` });
        continue;
      }
      declarations.push({ ...requirement, kind, line: line ?? lines.find(`"${requirement.name}`, from) });
    }
  };
  const fromPoetryTable = (table: Record<string, unknown> | undefined, kind: DependencyKind, header: string) => {
    if (!table) return;
    const from = Math.max(0, lines.offset(`[${header}]`));
    for (const [name, spec] of Object.entries(table)) {
      if (name.toLowerCase() === 'python') continue;
      const version =
        typeof spec === 'string' ? spec : isRecord(spec) && typeof spec.version === 'string' ? spec.version : undefined;
      const optional = isRecord(spec) && spec.optional === true;
      // The key starts a line; the match includes the newline before it, so the line is one further.
      const before = lines.find(`\n${name}`, from);
      declarations.push({
        name,
        ...(version ? { version } : {}),
        kind: optional && kind === 'prod' ? 'optional' : kind,
        ...(before !== undefined ? { line: before + 1 } : {}),
      });
    }
  };

  fromList(project?.dependencies, 'prod', 'project.dependencies', 'dependencies');
  for (const [group, list] of Object.entries(tableAt(toml, 'project.optional-dependencies') ?? {}))
    fromList(list, 'optional', `project.optional-dependencies.${group}`, `${group} =`);
  for (const [group, list] of Object.entries(tableAt(toml, 'dependency-groups') ?? {}))
    fromList(list, 'dev', `dependency-groups.${group}`, `${group} =`);
  fromList(tableAt(toml, 'tool.uv')?.['dev-dependencies'], 'dev', 'tool.uv.dev-dependencies', 'dev-dependencies');
  for (const [group, list] of Object.entries(tableAt(toml, 'tool.pdm.dev-dependencies') ?? {}))
    fromList(list, 'dev', `tool.pdm.dev-dependencies.${group}`, `${group} =`);
  fromPoetryTable(tableAt(toml, 'tool.poetry.dependencies'), 'prod', 'tool.poetry.dependencies');
  fromPoetryTable(tableAt(toml, 'tool.poetry.dev-dependencies'), 'dev', 'tool.poetry.dev-dependencies');
  for (const [group, table] of Object.entries(tableAt(toml, 'tool.poetry.group') ?? {})) {
    if (!isRecord(table)) continue;
    const header = `tool.poetry.group.${group}.dependencies`;
    fromPoetryTable(tableAt(table, 'dependencies'), group === 'main' ? 'prod' : 'dev', header);
  }
  return { root, declarations: firstOfEach(declarations), errors };
}

/** A name declared in several groups counts once, for its most shipped kind (prod over optional over dev). */
function firstOfEach(declarations: PythonDeclaration[]): PythonDeclaration[] {
  const rank: Record<DependencyKind, number> = { prod: 0, optional: 1, peer: 2, dev: 3 };
  const byName = new Map<string, PythonDeclaration>();
  for (const declaration of declarations) {
    const key = normalizePythonName(declaration.name);
    const known = byName.get(key);
    if (!known || rank[declaration.kind] < rank[known.kind]) byName.set(key, declaration);
  }
  return [...byName.values()];
}

export function parsePyproject(text: string, path: string): ParseResult {
  const { root, declarations, errors } = readPyproject(text, path);
  const dependencies: Dependency[] = declarations.map((declaration) =>
    declaredDependency('pypi', root, path, declaration),
  );
  return { dependencies, errors };
}

export const pyprojectParser: Parser = {
  kind: 'pyproject.toml',
  matches: (path) => basename(path) === 'pyproject.toml',
  sniff: (text) => /^\[(project|tool\.poetry|build-system)\]/m.test(text) && !/^\[\[package\]\]/m.test(text),
  parse: parsePyproject,
};
