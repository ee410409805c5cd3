// The parser contract (STYLE.md): pure functions of (text, path); the core owns every read, walk and close.
import type { Dependency, InputProblem } from '../model.js';

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
