// TOML (smol-toml, TOML 1.0) for every reader of a TOML file: the reason and the line when a file is broken.
import { parse, TomlError } from 'smol-toml';
import { ParseError } from '../../errors.js';
import { isRecord } from '../../json-text.js';

/** TOML → object, or a `file:line` error (smol-toml reports the line). */
export function readToml(text: string, file: string): Record<string, unknown> {
  try {
    return parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as Record<string, unknown>;
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const reason = error.message.split('\n')[0]?.replace(/^Invalid TOML document: /, '') ?? 'unreadable';
    throw new ParseError(file, error.line, `not valid TOML: ${reason}`);
  }
}

/** A table at a dotted path (`tool.poetry.dependencies`), or undefined when any step is missing or not a table. */
export function tableAt(root: Record<string, unknown>, path: string): Record<string, unknown> | undefined {
  let node: unknown = root;
  for (const key of path.split('.')) {
    if (!isRecord(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return isRecord(node) ? node : undefined;
}
