// The parser contract (STYLE.md, after osv-scalibr's extractors). A parser says which paths concern it from the path
// alone (`matches`), recognises its format in a text (`sniff`), and turns text into dependencies (`parse`). The core
// (src/scan.ts) owns every walk, read and close: a parser that needs another file (the manifests next to a lockfile,
// a Terraform module's directory) asks the core's FileAccess handle, never the file system.
//
// Adding an input kind: one file in src/parsers/ exporting a Parser, registered in src/parsers/index.ts in sniffing
// order (CONTRIBUTING.md has the checklist). A parser that reads one file at a time implements `parse` and nothing
// else; `files` is there when it needs it.
import type { Dependency, Ecosystem, InputProblem, InputResult, ScheduledJob } from '../model.js';

export interface ParseResult {
  dependencies: Dependency[];
  /** Scheduled jobs the file declares (a workflow's crons, a CronJob, a cloud scheduler). */
  jobs?: ScheduledJob[];
  /** Problems that skipped a line or block; the rest of the file still counts. */
  errors: InputProblem[];
  /** Directories (relative to the input's own, `.` for itself) of the projects this input accounts for. */
  projectDirs?: string[];
  /**
   * A lockfile's root and workspace packages by name, read with a scope or not: the repository's own packages, whose
   * npm scope tells a vendor's own repository from a customer's (src/catalog/matcher.ts).
   */
  ownPackages?: string[];
  /**
   * How many dependencies the input holds, one per workspace and package, when `dependencies` lists some packages once
   * for all workspaces (see ParseOptions.perWorkspace); unset when every one is listed.
   */
  dependencyCount?: number;
}

/**
 * A lockfile read from the workspace root above the scanned folders (src/workspace-root.ts): only the workspaces at or
 * under `within` (folders relative to the lockfile's, posix) are chain roots, what they reach through the others
 * included. Lockfile parsers honour it; no other parser is handed one.
 */
export interface ParseScope {
  within: readonly string[];
}

/** How the core asks a parser to read; parsers that read one file the same way every time ignore it. */
export interface ParseOptions {
  /** Set only for a workspace root's lockfile read from a folder inside it. */
  scope?: ParseScope;
  /**
   * The packages a multi-workspace lockfile lists once per workspace reaching them, each with that workspace's chain,
   * reach and `direct`; the others are listed once, with the best reach and chain any workspace gives them and
   * `direct` when some workspace declares them. Unset: all of them (`explain` shows every workspace's chain). A check
   * asks per workspace only for what the catalog can name: those are its evidence, and the rest is only counted.
   */
  perWorkspace?: (ecosystem: Ecosystem, name: string) => boolean;
}

/** Whether a workspace folder (relative to the lockfile's, posix, `.` for its own) is at or under one of `within`. */
export function inScope(dir: string, scope: ParseScope): boolean {
  return scope.within.some((folder) => dir === folder || dir.startsWith(`${folder}/`));
}

/** One input: its path as the scan names it (`<stdin>` for standard input), and its text. */
export interface SourceFile {
  path: string;
  text: string;
}

/**
 * Why a parser reads outside the scanned tree. Every reason is a named, reviewed exception: the default answer
 * to a path outside the directories the user asked to scan (or inside node_modules, .git, .terraform…) is no.
 */
export type LeaveTree =
  /** A local module (`source = "../modules/network"`) may sit anywhere, as Terraform allows. */
  | 'terraform-local-module'
  /** Remote modules are where `terraform init` put them: `.terraform/modules`, which the walk skips. */
  | 'terraform-downloaded-module';

/**
 * A read that did not give text. `missing`: nothing there (often expected, say an optional manifest);
 * `outside`: refused by the rule above; `unreadable`: there but not readable (permission, a directory or device,
 * too large, binary). The parser decides whether it matters, and reports it the way it reports any problem: as an
 * InputProblem in its result (`file: reason`).
 */
export interface FailedRead {
  failed: 'missing' | 'outside' | 'unreadable';
  /** For people: `no such file or directory`, `permission denied`, `outside the scanned directories`… */
  reason: string;
}

/**
 * The core's one handle for reading files on a parser's behalf. Paths are as the scan names them (the input's
 * `path` joined with a relative path, see `besides`). One rule decides what may be read: files inside the
 * directories the user scanned, outside the directories the walk skips; anything else needs a named `leave`.
 */
export interface FileAccess {
  read(path: string, leave?: LeaveTree): Promise<{ text: string } | FailedRead>;
  /**
   * The entries of a directory, sorted: regular files and symbolic links (which `read` follows, or says why not),
   * and subdirectories the walk would enter.
   */
  list(dir: string, leave?: LeaveTree): Promise<{ files: string[]; dirs: string[] } | FailedRead>;
}

export interface Parser {
  /** Shown as the input's `kind` in reports: `package.json`, `domains`, `package-lock`, … */
  kind: string;
  /** Does this path concern me? Decided from the path alone, no I/O. */
  matches(path: string): boolean;
  /** For stdin and explicitly named files no `matches` claimed: does this text look like my format? */
  sniff(text: string): boolean;
  /**
   * Text → dependencies (or a promise of them). Throws `ParseError` when nothing at all can be read; anything
   * less is an entry in `errors` and the rest counts. With `options.scope` (a workspace root's lockfile read from a
   * folder inside it) `projectDirs` names only the scoped workspaces.
   */
  parse(text: string, path: string, files: FileAccess, options?: ParseOptions): ParseResult | Promise<ParseResult>;
  /**
   * Only for formats whose unit is bigger than one file (a Terraform module is a directory, and which modules are
   * roots depends on which call which): the core then calls this once with every input the parser claimed in the
   * scan, instead of `parse` per input, and takes one result per file back. `parse` still serves standard input.
   */
  parseTogether?(inputs: SourceFile[], files: FileAccess): Promise<InputResult[]>;
  /** File names in the same project this input replaces once it was read (a lockfile over its package.json). */
  supersedes?: readonly string[];
  /** A binary format the core does not read but hands over as '' (not rejected as binary): the parser says what to do. */
  binary?: boolean;
  /**
   * The file may hold nothing this tool reads (any `*.yaml` may be a Kubernetes manifest; a vercel.json may have no
   * crons): when it yields no dependency, no job and no problem, it is not counted as an input at all.
   */
  quietWhenEmpty?: boolean;
}

/** A handle that reads nothing: for standard input (no files around it) and for parsing a text on its own. */
export const NO_FILES: FileAccess = {
  read: async () => ({ failed: 'outside', reason: 'a pasted text has no files around it' }),
  list: async () => ({ failed: 'outside', reason: 'a pasted text has no files around it' }),
};

export function isFailedRead(result: object): result is FailedRead {
  return 'failed' in result;
}

/** A path next to an input, as the scan names it: `besides('app/yarn.lock', 'packages/api/package.json')`. */
export function besides(inputPath: string, relativePath: string): string {
  const slash = Math.max(inputPath.lastIndexOf('/'), inputPath.lastIndexOf('\\'));
  const dir = slash > 0 ? inputPath.slice(0, slash) : slash === 0 ? '/' : '';
  // `./x` and `.` name the directory itself; `.env` is a file whose name starts with a dot.
  const rel = relativePath.replace(/^\.(\/|$)/, '');
  if (!dir) return rel || '.';
  if (!rel) return dir;
  return dir.endsWith('/') ? `${dir}${rel}` : `${dir}/${rel}`;
}

export function basename(path: string): string {
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return slash >= 0 ? path.slice(slash + 1) : path;
}
