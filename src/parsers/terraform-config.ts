// Terraform configurations (https://developer.hashicorp.com/terraform/language/files): .tf, .tf.json and .tfvars,
// read a directory at a time, following local modules, into providers, resource types and module calls with regions.
import { collectJobs } from '../jobs/found.js';
import type { InputProblem, InputResult } from '../model.js';
import { fileKind, type ReadOptions } from './terraform/config-files.js';
import { evaluateTree, MAX_MODULE_DEPTH, type Tree } from './terraform/evaluate.js';
import {
  directoryOf,
  downloadedModuleDir,
  moduleProblems,
  readModuleDir,
  type ModuleDir,
} from './terraform/module-dir.js';
import { posix } from 'node:path';
import {
  basename,
  type FailedRead,
  type FileAccess,
  type LeaveTree,
  type Parser,
  type ParseResult,
  type SourceFile,
} from './types.js';

/** A top-level Terraform block header at the start of a line. */
const TERRAFORM_HEADER = /^(terraform|provider|resource|data|module|variable|locals|output)[ \t]*("[^"\n]*"[ \t]*)*\{/m;
/** The JSON form: an object whose keys are block types. */
const TERRAFORM_JSON = /^\s*\{\s*"(terraform|provider|resource|data|module|variable|locals)"\s*:\s*[[{]/;

export interface TerraformOptions {
  /**
   * false sends every body and value through the full parser; only the equality test and the bench turn the fast
   * path (the shallow reader, hcl-values.ts) off, to compare both.
   */
  fastPath?: boolean;
}

export function createTerraformParser(options: TerraformOptions = {}): Parser {
  const read: ReadOptions = { shallow: options.fastPath ?? true };
  return {
    kind: 'terraform',
    matches: (path) => fileKind(basename(path)) !== undefined,
    sniff: (text) => TERRAFORM_HEADER.test(text) || TERRAFORM_JSON.test(text),
    /** One text on its own (standard input, a pasted configuration): its modules are not followed. */
    parse(text: string, path: string): ParseResult {
      const dir = directoryOf(path);
      const kind = fileKind(basename(path)) ?? (text.trimStart().startsWith('{') ? 'tf-json' : 'tf');
      const module = readModuleDir(dir, [{ path, text, kind }], read);
      const tree: Tree = { modules: new Map([[dir, module]]), unreadable: new Map() };
      const { dependencies, problems, schedules } = evaluateTree(tree, [dir]);
      const { jobs, errors } = collectJobs(schedules);
      return { dependencies, jobs, errors: unique([...problems, ...errors, ...moduleProblems(module)]) };
    },
    async parseTogether(inputs, files) {
      const reader = moduleReader(files, read);
      const { tree, roots } = await loadTree(groupByDirectory(inputs), reader);
      const { dependencies, problems, schedules } = evaluateTree(tree, roots);
      const found = collectJobs(schedules);
      const byFile = groupBy(dependencies, (dependency) => dependency.file);
      const jobsByFile = groupBy(found.jobs, (job) => job.file);
      const problemsByFile = groupBy(
        unique([...problems, ...found.errors, ...[...tree.modules.values()].flatMap(moduleProblems)]),
        (problem) => problem.file,
      );
      const unreadableFiles = reader.problems.map(
        (problem): InputResult => ({ file: problem.file, kind: 'terraform', dependencies: [], errors: [problem] }),
      );
      const results = [...tree.modules.values()].flatMap((module) =>
        module.files.map(
          (file): InputResult => ({
            file: file.path,
            kind: fileKind(file.path)?.startsWith('tfvars') ? 'tfvars' : 'terraform',
            dependencies: byFile.get(file.path) ?? [],
            errors: problemsByFile.get(file.path) ?? [],
            ...(jobsByFile.has(file.path) ? { jobs: jobsByFile.get(file.path) } : {}),
          }),
        ),
      );
      return [...results, ...unreadableFiles];
    },
  };
}

export const terraformParser = createTerraformParser();

/**
 * Reads the scanned directories, every local module they call (each directory once, so cycles end), then the
 * remote modules `terraform init` downloaded for each root, and the local modules those call, until nothing is new.
 */
async function loadTree(
  directories: Array<{ dir: string; files: SourceFile[] }>,
  reader: ModuleReader,
): Promise<{ tree: Tree; roots: string[] }> {
  const tree: Tree = { modules: new Map(), unreadable: new Map() };
  const pending: ModuleDir[] = [];
  for (const { dir, files } of directories) {
    const module = readModuleDir(dir, files, reader.options);
    tree.modules.set(dir, module);
    pending.push(module);
  }
  await readLocalModules(tree, pending, reader);
  const roots = rootsOf(
    tree,
    directories.map((entry) => entry.dir),
  );
  const attempted = new Set<string>();
  for (
    let wanted = downloadsWanted(tree, roots, attempted);
    wanted.length > 0;
    wanted = downloadsWanted(tree, roots, attempted)
  ) {
    for (const dir of wanted) {
      attempted.add(dir);
      const files = await reader.read(dir, 'terraform-downloaded-module');
      // Not downloaded (no `terraform init` here): the call then counts as a module of its provider.
      if ('failed' in files) continue;
      const module = readModuleDir(dir, files, reader.options);
      if (module.files.length === 0) continue;
      tree.modules.set(dir, module);
      pending.push(module);
    }
    await readLocalModules(tree, pending, reader);
  }
  return { tree, roots };
}

/**
 * Download directories of remote module calls reachable from the roots that were not looked for yet. Each module is
 * walked once per root, on the first path that reaches it (a diamond of modules has 2^n paths): a remote module
 * called from a local module that other paths reach too is looked for at the first path's key only.
 */
function downloadsWanted(tree: Tree, roots: string[], attempted: Set<string>): string[] {
  const wanted = new Set<string>();
  for (const root of roots) {
    const walked = new Set<string>();
    const pending: Array<{ dir: string; key: string[]; stack: string[] }> = [{ dir: root, key: [], stack: [root] }];
    for (let next = pending.pop(); next; next = pending.pop()) {
      const { dir, key, stack } = next;
      if (walked.has(dir) || stack.length > MAX_MODULE_DEPTH) continue;
      walked.add(dir);
      for (const call of [...(tree.modules.get(dir)?.calls ?? [])].reverse()) {
        const child = call.localDir ?? downloadedModuleDir(root, [...key, call.name], call.source);
        if (stack.includes(child)) continue;
        if (tree.modules.has(child)) pending.push({ dir: child, key: [...key, call.name], stack: [...stack, child] });
        else if (call.localDir === undefined && !attempted.has(child)) wanted.add(child);
      }
    }
  }
  return [...wanted];
}

async function readLocalModules(tree: Tree, pending: ModuleDir[], reader: ModuleReader): Promise<void> {
  while (pending.length > 0) {
    const module = pending.shift() as ModuleDir;
    for (const call of module.calls) {
      const dir = call.localDir;
      if (dir === undefined || tree.modules.has(dir) || tree.unreadable.has(dir)) continue;
      const files = await reader.read(dir, 'terraform-local-module');
      if ('failed' in files) {
        tree.unreadable.set(dir, files.reason);
        continue;
      }
      const child = readModuleDir(dir, files, reader.options);
      if (child.files.length === 0) tree.unreadable.set(dir, 'no Terraform files there');
      else {
        tree.modules.set(dir, child);
        pending.push(child);
      }
    }
  }
}

/**
 * Root modules: scanned directories no other scanned directory calls (a called one is evaluated through its
 * caller, with the caller's providers and inputs). Directories only reachable through a cycle become roots too.
 */
function rootsOf(tree: Tree, scanned: string[]): string[] {
  const called = new Set<string>();
  for (const dir of scanned)
    for (const call of tree.modules.get(dir)?.calls ?? [])
      if (call.localDir && call.localDir !== dir) called.add(call.localDir);
  const roots = scanned.filter((dir) => !called.has(dir));
  const reached = new Set<string>();
  const reach = (start: string) => {
    const pending = [start];
    for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
      if (reached.has(dir)) continue;
      reached.add(dir);
      for (const call of tree.modules.get(dir)?.calls ?? []) if (call.localDir) pending.push(call.localDir);
    }
  };
  roots.forEach(reach);
  for (const dir of scanned) {
    if (reached.has(dir)) continue;
    roots.push(dir);
    reach(dir);
  }
  return roots;
}

/** The core hands over files; a Terraform module is every file of a directory. */
function groupByDirectory(inputs: SourceFile[]): Array<{ dir: string; files: SourceFile[] }> {
  return [...groupBy(inputs, (input) => directoryOf(input.path))].map(([dir, files]) => ({ dir, files }));
}

interface ModuleReader {
  /** How every module's files are read (the shallow reader, or the full parser throughout). */
  options: ReadOptions;
  /** The Terraform files of a module directory outside the scan's own inputs, or why it cannot be read. */
  read(dir: string, leave: LeaveTree): Promise<SourceFile[] | FailedRead>;
  /** Files of such a directory that could not be read, reported as inputs of their own. */
  problems: InputProblem[];
}

function moduleReader(files: FileAccess, options: ReadOptions): ModuleReader {
  const problems: InputProblem[] = [];
  return {
    options,
    problems,
    async read(dir, leave) {
      const listed = await files.list(dir, leave);
      if ('failed' in listed) return listed;
      const sources: SourceFile[] = [];
      for (const name of listed.files) {
        const path = posix.join(dir, name);
        if (fileKind(name) === undefined) continue;
        const read = await files.read(path, leave);
        if ('failed' in read) problems.push({ file: path, message: read.reason });
        else sources.push({ path, text: read.text });
      }
      return sources;
    },
  };
}

function unique(problems: InputProblem[]): InputProblem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const key = `${problem.file}\u0000${problem.line}\u0000${problem.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const list = groups.get(key(item));
    if (list) list.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}
