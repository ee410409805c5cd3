// The parser contract (STYLE.md): pure functions of (text, path); the core owns every read, walk and close.
import type { Dependency, InputProblem, InputResult, ScheduledJob } from '../model.js';

export interface ParseResult {
  dependencies: Dependency[];
  /** Scheduled jobs the file declares (a workflow's crons, a CronJob, a cloud scheduler). */
  jobs?: ScheduledJob[];
  /** Problems that skipped a line or block; the rest of the file still counts. */
  errors: InputProblem[];
  /** Directories (relative to the input's own, `.` for itself) of the projects this input accounts for. */
  projectDirs?: string[];
}

/** Files next to an input, read by the core on a parser's behalf (paths relative to the input's directory). */
export interface ParseContext {
  /** Text of a related file, or undefined when it does not exist (or the input came from stdin). */
  readRelated(relativePath: string): Promise<string | undefined>;
  /** Subdirectory names of a related directory (empty when it does not exist). */
  listDirs(relativePath: string): Promise<string[]>;
}

export interface Parser {
  /** Shown as the input's `kind` in reports: `package.json`, `domains`, `package-lock`, … */
  kind: string;
  /** Does this path concern me? Decided from the path alone, no I/O. */
  matches(path: string): boolean;
  /** For stdin and explicitly named files no `matches` claimed: does this text look like my format? */
  sniff(text: string): boolean;
  /** Text → dependencies. Throws `ParseError` when nothing at all can be read. */
  parse(text: string, path: string): ParseResult;
  /**
   * Optional async form, preferred by the core when present: for formats that need a lazily loaded reader
   * (@npmcli/arborist) or the project's manifests (yarn v1 and npm v1 lockfiles do not name their roots).
   */
  parseAsync?(text: string, path: string, context: ParseContext): Promise<ParseResult>;
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

export function basename(path: string): string {
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return slash >= 0 ? path.slice(slash + 1) : path;
}

export interface SourceFile {
  path: string;
  text: string;
}

/** What the core offers a set parser: reading the files it claims in another directory (a local module). */
export interface DirectoryReader {
  /** The claimed files of `dir`; throws `ParseError` with the reason when the directory cannot be read. */
  readDirectory(dir: string): Promise<SourceFile[]>;
}

/**
 * A parser whose unit is a directory, not a file (a Terraform module is every .tf file of a directory plus its
 * .tfvars). The core hands it every claimed file of the scan, grouped by directory, and reads other directories
 * only when asked; `parse` still serves stdin and single texts.
 */
export interface SetParser extends Parser {
  parseSet(directories: Array<{ dir: string; files: SourceFile[] }>, reader: DirectoryReader): Promise<InputResult[]>;
}

export function isSetParser(parser: Parser): parser is SetParser {
  return typeof (parser as Partial<SetParser>).parseSet === 'function';
}
