// The parser contract (STYLE.md): pure functions of (text, path); the core owns every read, walk and close.
import type { Dependency, InputProblem, InputResult } from '../model.js';

export interface ParseResult {
  dependencies: Dependency[];
  /** Problems that skipped a line or block; the rest of the file still counts. */
  errors: InputProblem[];
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
