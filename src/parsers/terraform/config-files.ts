// One Terraform file (native .tf, JSON .tf.json, or a .tfvars variables file) → its top-level blocks, whose bodies
// are parsed only when asked for. Syntax: https://developer.hashicorp.com/terraform/language/syntax/json
import { lineAt, ParseError } from '../../errors.js';
import { isRecord, lineOfKey, parseJsonText } from '../../json-text.js';
import type { InputProblem } from '../../model.js';
import { type Body, type BodyView, fullView, readShallow, shallowView } from './body-view.js';
import { splitHcl } from './hcl-items.js';
import { HclSyntaxError, parseHcl } from './hcl-parser.js';
import { resolvableValue } from './hcl-values.js';

export type { Body, BodyView };

export interface Block {
  type: string;
  labels: string[];
  file: string;
  line: number;
  /** The native-syntax body text (absent for JSON): lets a caller decide that the header says enough. */
  source?: string;
  /** The parsed body, or undefined when it does not parse (the problem is then reported once). */
  body(): Body | undefined;
  /** The body read by attribute name, parsing only what the shallow reader declines; undefined when unreadable. */
  view(): BodyView | undefined;
}

export interface ReadOptions {
  /** false sends every body and value through the full parser (the equality test and bench compare both ways). */
  shallow: boolean;
}

export interface ConfigFile {
  path: string;
  blocks: Block[];
  /** Top-level `name = value` pairs of a .tfvars file, with their line. */
  values: Map<string, { value: unknown; line: number }>;
  errors: InputProblem[];
}

export type FileKind = 'tf' | 'tf-json' | 'tfvars' | 'tfvars-json';

export function fileKind(path: string): FileKind | undefined {
  if (path.endsWith('.tf')) return 'tf';
  if (path.endsWith('.tf.json')) return 'tf-json';
  if (path.endsWith('.tfvars')) return 'tfvars';
  if (path.endsWith('.tfvars.json')) return 'tfvars-json';
  return undefined;
}

export function readConfigFile(
  text: string,
  path: string,
  kind: FileKind,
  options: ReadOptions = { shallow: true },
): ConfigFile {
  const file: ConfigFile = { path, blocks: [], values: new Map(), errors: [] };
  if (kind === 'tf-json' || kind === 'tfvars-json') {
    let document: unknown;
    try {
      document = parseJsonText(text, path);
    } catch (error) {
      if (!(error instanceof ParseError)) throw error;
      file.errors.push({ file: path, line: error.line, message: error.message });
      return file;
    }
    if (!isRecord(document)) {
      file.errors.push({ file: path, line: 1, message: 'expected a JSON object at the top level' });
      return file;
    }
    if (kind === 'tfvars-json')
      for (const [name, value] of Object.entries(document))
        file.values.set(name, { value, line: lineOfKey(text, name) ?? 1 });
    else file.blocks = jsonBlocks(document, text, path);
    return file;
  }

  const split = splitHcl(text);
  for (const problem of split.errors) file.errors.push({ file: path, line: problem.line, message: problem.message });
  for (const item of split.items) {
    if (kind === 'tfvars') {
      if (item.kind !== 'attribute') {
        file.errors.push({
          file: path,
          line: item.line,
          message: `${item.type}: a variables file holds only "name = value" lines; skipped`,
        });
        continue;
      }
      // Only resolved (variableValues takes plain strings), so an expression that resolves to nothing stays unparsed.
      const read = options.shallow ? resolvableValue(item.text.slice(item.text.indexOf('=') + 1)) : undefined;
      if (read) {
        file.values.set(item.name, { value: read.value, line: item.line });
        continue;
      }
      try {
        // A heredoc's closing marker must end its line: the item's text stops just before that newline.
        file.values.set(item.name, { value: parseHcl(`${item.text}\n`)[item.name], line: item.line });
      } catch (error) {
        if (!(error instanceof HclSyntaxError)) throw error;
        file.errors.push({ file: path, line: item.line, message: `${item.name}: ${error.message}; skipped` });
      }
      continue;
    }
    if (item.kind === 'attribute') {
      file.errors.push({
        file: path,
        line: item.line,
        message: `${item.name}: an attribute is not allowed at the top level of a .tf file; skipped`,
      });
      continue;
    }
    file.blocks.push(nativeBlock(item.type, item.labels, item.line, item.text, item.body, file, options));
  }
  return file;
}

function nativeBlock(
  type: string,
  labels: string[],
  line: number,
  text: string,
  source: string,
  file: ConfigFile,
  options: ReadOptions,
): Block {
  let parsed: Body | null | undefined;
  let view: BodyView | null | undefined;
  return {
    type,
    labels,
    file: file.path,
    line,
    source,
    body() {
      if (parsed === undefined) {
        try {
          parsed = bodyOf(parseHcl(text), type, labels) ?? null;
          if (parsed === null) throw new HclSyntaxError('the block has an unexpected shape');
        } catch (error) {
          if (!(error instanceof HclSyntaxError)) throw error;
          parsed = null;
          const header = [type, ...labels.map((label) => JSON.stringify(label))].join(' ');
          file.errors.push({ file: file.path, line, message: `${header}: ${error.message}; the block is skipped` });
        }
      }
      return parsed ?? undefined;
    },
    view() {
      if (view === undefined) {
        const shallow = options.shallow ? readShallow(source) : undefined;
        if (shallow) view = shallowView(shallow, () => this.body());
        else {
          const body = this.body();
          view = body ? fullView(body) : null;
        }
      }
      return view ?? undefined;
    },
  };
}

/** Line of the first `name =` inside a native block (the parser's objects carry no positions); else the header's. */
export function lineOfAttribute(block: Block, name: string): number {
  if (block.source === undefined) return block.line;
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`(^|\n)[ \t]*"?${escaped}"?[ \t]*=`).exec(block.source);
  if (!match) return block.line;
  let line = block.line;
  for (let i = 0; i < match.index + match[1]!.length; i++) if (block.source.charCodeAt(i) === 10) line++;
  return line;
}

/** The parser nests a block under its type, then each label, then an array of bodies. */
function bodyOf(parsed: Body, type: string, labels: string[]): Body | undefined {
  let node: unknown = parsed[type];
  for (const label of labels) node = isRecord(node) ? node[label] : undefined;
  const first = Array.isArray(node) ? node[0] : node;
  return isRecord(first) ? first : undefined;
}

/** Block types whose JSON form nests this many label levels (resource: type, name). */
const JSON_LABELS: Record<string, number> = {
  resource: 2,
  data: 2,
  provider: 1,
  variable: 1,
  module: 1,
  output: 1,
  terraform: 0,
  locals: 0,
};

function jsonBlocks(document: Body, text: string, path: string): Block[] {
  const blocks: Block[] = [];
  for (const [type, value] of Object.entries(document)) {
    const depth = JSON_LABELS[type];
    if (depth === undefined) continue;
    const typeOffset = offsetOfKey(text, type, 0);
    const visit = (node: unknown, labels: string[], from: number) => {
      if (labels.length === depth) {
        for (const body of asList(node)) {
          if (!isRecord(body)) continue;
          const view = fullView(body);
          blocks.push({ type, labels, file: path, line: lineAt(text, from), body: () => body, view: () => view });
        }
        return;
      }
      if (!isRecord(node)) return;
      for (const [label, child] of Object.entries(node))
        visit(child, [...labels, label], offsetOfKey(text, label, from));
    };
    visit(value, [], typeOffset);
  }
  return blocks;
}

function offsetOfKey(text: string, key: string, from: number): number {
  const line = lineOfKey(text.slice(from), key);
  if (line === undefined) return from;
  let offset = from;
  for (let i = 1; i < line; i++) offset = text.indexOf('\n', offset) + 1;
  return offset;
}

/** JSON writes one block as an object and repeated blocks as an array of objects; native HCL always as an array. */
export function asList(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}
