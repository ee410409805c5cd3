// A fast reader for the regular YAML subset pnpm and yarn berry write (https://yaml.org/spec/1.2.2/ block
// mappings, plain and quoted scalars, literal block scalars, one-line flow collections). Anything outside that subset
// (anchors, tags, folded scalars, duplicate keys, tabs, multi-line flows) returns undefined and the full yaml library
// takes over; test/parsers/lockfile/yaml-fast.test.ts proves both readers give the same lockfile results on every
// fixture. Its line walk, block scalars and flow collections are shared with the config reader
// (src/parsers/config/yaml-block.ts).

/** Scalars are text or null, except in a flow collection the config reader has typed (yaml-block.ts). */
export type FastValue = FlowScalar | FastMap | FastValue[];
/** A flow scalar: text or null as the lockfile readers take it, or typed as YAML reads it for the config reader. */
export type FlowScalar = string | number | boolean | null;
export type FastMap = Map<string, { value: FastValue; line: number }>;

/** Thrown where a text leaves the subset: the caller hands it to the full parser. */
export class Unsupported extends Error {}

interface Frame {
  indent: number;
  map: FastMap;
  /** Set for a block sequence of scalars (`- item` lines). */
  list?: FastValue[];
}

/**
 * A flow collection written on its key's line, read when first asked for. A pnpm lockfile has one or two per package
 * that no parser asks for (`resolution: {integrity: sha512-…}`, `engines: {…}`), and reading them was a third of the
 * fast reader's time. What is left for later has been checked to close on its line, no deeper than this reader goes
 * (a cut or hostile file is still the library's to report). Reading may throw Unsupported: the caller then has the
 * yaml library read the value where it stands (src/parsers/lockfile/yaml-lock.ts), so the answer is the library's.
 */
export class InlineEntry {
  private read = false;
  private parsed: FastValue = null;

  constructor(
    /** The value as written after `key: `, trimmed. */
    readonly text: string,
    readonly line: number,
  ) {}

  get value(): FastValue {
    if (!this.read) {
      this.parsed = parseValue(this.text, this.line);
      this.read = true;
    }
    return this.parsed;
  }
}

/**
 * `flows: 'when-read'` keeps one-line flow collections as InlineEntry (for the lockfile readers, which ask for few of
 * them); by default every value is read here. Anything outside the subset returns undefined.
 */
export function readFastYaml(text: string, options: { flows?: 'when-read' } = {}): FastMap | undefined {
  try {
    return read(text, options.flows === 'when-read');
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

function read(text: string, flowsWhenRead: boolean): FastMap {
  const root: FastMap = new Map();
  const stack: Frame[] = [{ indent: 0, map: root }];
  // A key written as `key:` with nothing after it: its value is the block below, if any.
  let open: { frame: Frame; key: string; line: number; indent: number } | undefined;
  const lines = new ContentLines(text);
  while (lines.next()) {
    const { line, indent, number: lineNumber } = lines;
    const first = line.charCodeAt(indent);
    if (first === 9 || (indent === 0 && (line.startsWith('---') || line.startsWith('...') || line.startsWith('%'))))
      throw new Unsupported();

    const item = first === 45 /* - */ && (line.charCodeAt(indent + 1) === 32 || indent + 1 === line.length);
    if (open) {
      if (item && indent >= open.indent) {
        // A sequence may sit at its key's own indent.
        const list: FastValue[] = [];
        open.frame.map.set(open.key, { value: list, line: open.line });
        stack.push({ indent, map: new Map(), list });
      } else if (indent > open.indent) {
        const child: FastMap = new Map();
        open.frame.map.set(open.key, { value: child, line: open.line });
        stack.push({ indent, map: child });
      } else {
        open.frame.map.set(open.key, { value: null, line: open.line });
      }
      open = undefined;
    }
    while ((stack[stack.length - 1] as Frame).indent > indent) stack.pop();
    const frame = stack[stack.length - 1] as Frame;
    // Deeper than its mapping without a `key:` to open it: a continuation line, outside the subset.
    if (frame.indent !== indent) throw new Unsupported();
    if (frame.list || item) {
      if (!frame.list || !item) throw new Unsupported();
      const value = line.slice(indent + 1).trim();
      if (/^("[^"]*"|'[^']*'|[^'"]+?):( |$)/.test(value) || value.startsWith('- ')) throw new Unsupported();
      frame.list.push(parseValue(value, lineNumber));
      continue;
    }

    const { key, rest } = splitKey(line, indent);
    const { map } = frame;
    const block = rest.charCodeAt(0) === 124 /* | */ ? /^\|([-+]?)$/.exec(rest) : null;
    if (block || rest === '') {
      if (map.has(key)) throw new Unsupported();
      // A literal block scalar (`deprecated: |-` and its message, in real pnpm lockfiles).
      if (block) map.set(key, { value: lines.block(indent, block[1] as string), line: lineNumber });
      else open = { frame, key, line: lineNumber, indent };
      continue;
    }
    const size = map.size;
    map.set(
      key,
      flowsWhenRead && readLater(rest)
        ? new InlineEntry(rest, lineNumber)
        : { value: parseValue(rest, lineNumber), line: lineNumber },
    );
    // A key the mapping had already: the entry did not add one.
    if (map.size === size) throw new Unsupported();
  }
  if (open) open.frame.map.set(open.key, { value: null, line: open.line });
  return root;
}

/**
 * The content lines of a text, one at a time (blank and comment lines skipped), each with its 1-based number and its
 * indentation; a block scalar read below the current line moves it past the block.
 */
export class ContentLines {
  line = '';
  indent = 0;
  number = 0;
  private start = 0;

  constructor(private readonly text: string) {}

  /** Moves to the next content line; false at the end of the text. */
  next(): boolean {
    const text = this.text;
    const length = text.length;
    while (this.start <= length) {
      let end = text.indexOf('\n', this.start);
      if (end === -1) end = length;
      this.number++;
      const line = text.slice(this.start, text.charCodeAt(end - 1) === 13 /* \r */ ? end - 1 : end);
      this.start = end + 1;
      let indent = 0;
      while (line.charCodeAt(indent) === 32) indent++;
      if (indent === line.length || line.charCodeAt(indent) === 35 /* # */) continue;
      this.line = line;
      this.indent = indent;
      return true;
    }
    return false;
  }

  /** The block scalar below the current line, whose key is indented by `indent` (see literalBlock). */
  block(indent: number, chomp: string, folded = false): string {
    const read = literalBlock(this.text, this.start, indent, chomp, folded);
    this.number += read.lines;
    this.start = read.next;
    return read.value;
  }
}

/**
 * A literal block scalar (`|`, `|-`, `|+`) whose text starts at `start`, below a key indented by `indent`: the lines
 * indented deeper than the key, their common indentation removed, the final line breaks chomped as `chomp` says.
 * Folded (`>`), its lines are joined by spaces; one folded text with blank or more-indented lines inside, which YAML
 * folds by rules of their own, is left to the full parser. Returns the value, how many lines it took and where the
 * text after it starts.
 */
function literalBlock(
  text: string,
  start: number,
  indent: number,
  chomp: string,
  folded = false,
): { value: string; lines: number; next: number } {
  const length = text.length;
  const lines: string[] = [];
  let blockIndent = 0;
  let taken = 0;
  while (start < length) {
    let next = text.indexOf('\n', start);
    if (next === -1) next = length;
    let body = text.slice(start, next);
    if (body.endsWith('\r')) body = body.slice(0, -1);
    let spaces = 0;
    while (body.charCodeAt(spaces) === 32) spaces++;
    if (spaces === body.length) {
      // A blank line belongs to the scalar; one with more spaces than its indentation keeps them: left to the
      // full parser.
      if (blockIndent > 0 ? spaces > blockIndent : spaces > indent) throw new Unsupported();
      lines.push('');
    } else if (spaces <= indent) break;
    else {
      if (blockIndent === 0) blockIndent = spaces;
      if (spaces < blockIndent || body.charCodeAt(spaces) === 9) throw new Unsupported();
      lines.push(body.slice(blockIndent));
    }
    taken++;
    start = next + 1;
  }
  // Blank lines after the last content line are the scalar's trailing breaks, not its content.
  let trailing = 0;
  while (lines.length > 0 && lines.at(-1) === '') {
    lines.pop();
    trailing++;
  }
  if (lines.length === 0) throw new Unsupported();
  if (folded && lines.some((line) => line === '' || line.startsWith(' '))) throw new Unsupported();
  const content = lines.join(folded ? ' ' : '\n');
  const value = chomp === '-' ? content : chomp === '+' ? `${content}\n${'\n'.repeat(trailing)}` : `${content}\n`;
  return { value, lines: taken, next: start };
}

/** `key: rest` with the key plain or quoted; rest is '' when the value is a block below. */
export function splitKey(line: string, indent: number): { key: string; rest: string; quoted: boolean } {
  const quote = line[indent];
  if (quote === '"' || quote === "'") {
    const close = closingQuote(line, indent);
    if (line[close + 1] !== ':') throw new Unsupported();
    const after = line.slice(close + 2);
    if (after !== '' && !after.startsWith(' ')) throw new Unsupported();
    return { key: unquote(line.slice(indent, close + 1)), rest: after.trim(), quoted: true };
  }
  const colon = line.indexOf(': ', indent);
  const end = colon >= 0 ? colon : line.charCodeAt(line.length - 1) === 58 /* : */ ? line.length - 1 : -1;
  // A space before the colon is not part of a plain key for YAML (`key : v`); this reader leaves such a key alone.
  if (end <= indent || endsInSpace(line, end) || KEY_START.test(line[indent] as string)) throw new Unsupported();
  const comment = line.indexOf(' #', indent);
  if (comment >= 0 && comment + 1 < end) throw new Unsupported();
  return { key: line.slice(indent, end), rest: colon >= 0 ? line.slice(colon + 2).trim() : '', quoted: false };
}

/** What a plain key may not start with: YAML indicators this reader leaves to the library. */
const KEY_START = /[?&*!|>%@`{[\]]/;

/** Whether the character before `end` is one String.prototype.trimEnd removes. */
function endsInSpace(line: string, end: number): boolean {
  const code = line.charCodeAt(end - 1);
  if (code === 32 || (code >= 9 && code <= 13)) return true;
  return code > 127 && /\s/.test(line[end - 1] as string);
}

export function closingQuote(text: string, open: number): number {
  const quote = text[open];
  for (let i = open + 1; i < text.length; i++) {
    if (quote === '"' && text[i] === '\\') i++;
    else if (text[i] === quote) {
      if (quote === "'" && text[i + 1] === "'") i++;
      else return i;
    }
  }
  throw new Unsupported();
}

/** What JSON.parse reads otherwise than as written: escapes, and the control characters it refuses. */
const ESCAPE_OR_CONTROL = /[\\\u0000-\u001f]/;

/**
 * A double-quoted token (`"…"`, no unescaped quote inside) as JSON.parse would read it, when that is the text as
 * written: no escape and no control character. Most quoted values of a lockfile are (yarn quotes every range).
 */
export function quotedAsWritten(token: string): string | undefined {
  return ESCAPE_OR_CONTROL.test(token) ? undefined : token.slice(1, -1);
}

export function unquote(token: string): string {
  if (token.startsWith("'")) return token.slice(1, -1).replaceAll("''", "'");
  const asWritten = quotedAsWritten(token);
  if (asWritten !== undefined) return asWritten;
  // YAML's double-quoted escapes include JSON's; anything else is left to the full parser.
  try {
    return JSON.parse(token) as string;
  } catch {
    throw new Unsupported();
  }
}

function parseValue(rest: string, line: number): FastValue {
  const first = rest[0];
  if (first === '{' || first === '[') {
    const { value, end } = parseFlow(rest, 0, line);
    const tail = rest.slice(end).trim();
    if (tail !== '' && !tail.startsWith('#')) throw new Unsupported();
    return value;
  }
  if (first === '"' || first === "'") {
    const close = closingQuote(rest, 0);
    const tail = rest.slice(close + 1).trim();
    if (tail !== '' && !tail.startsWith('#')) throw new Unsupported();
    return unquote(rest.slice(0, close + 1));
  }
  if (/^[&*!|>%@`]/.test(rest)) throw new Unsupported();
  const comment = rest.indexOf(' #');
  return plain(comment >= 0 ? rest.slice(0, comment).trimEnd() : rest);
}

/**
 * Whether a value is a flow collection that may wait: it closes at the end of its line, nests no deeper than
 * MAX_FLOW_DEPTH, and holds no `&` or `*` (an anchor in it may be what another value's alias names). Quotes are
 * skipped as parseFlow skips them; a quote inside a plain scalar may make this say no, and the value is read now.
 */
function readLater(text: string): boolean {
  const first = text.charCodeAt(0);
  if (first !== 123 /* { */ && first !== 91 /* [ */) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 123 || code === 91) {
      if (++depth > MAX_FLOW_DEPTH) return false;
    } else if (code === 125 /* } */ || code === 93 /* ] */) {
      if (--depth === 0) return i === text.length - 1;
    } else if (code === 34 /* " */ || code === 39 /* ' */) {
      const close = text.indexOf(text[i] as string, i + 1);
      // An escaped or doubled quote: read now.
      if (close < 0 || text.charCodeAt(close - 1) === 92 /* \ */ || text.charCodeAt(close + 1) === code) return false;
      i = close;
    } else if (code === 38 /* & */ || code === 42 /* * */) return false;
  }
  return false;
}

/** Plain scalars as the yaml library reads them where it matters here: null stays null, the rest is text. */
function plain(text: string): string | null {
  if (text === '' || text === '~' || text === 'null' || text === 'Null' || text === 'NULL') return null;
  // Numbers lose their written form in YAML (1.10 → 1.1); let the full parser decide those. Only a digit, a sign or a
  // point can start one (most scalars are names, versions and hashes: no need to try the pattern).
  const first = text.charCodeAt(0);
  if (
    ((first >= 48 && first <= 57) || first === 43 || first === 45 || first === 46) &&
    /^[-+]?(\d[\d_]*)?\.?\d+([eE][-+]?\d+)?$/.test(text) &&
    !/^\d+$/.test(text)
  )
    throw new Unsupported();
  return text;
}

/** Deeper flow nesting than any lockfile writes; the full parser takes such a file (and reports it). */
const MAX_FLOW_DEPTH = 32;

/**
 * A one-line flow collection at `at`. Its plain scalars are read by `scalar`: as text by default (the lockfile
 * readers), typed by the config reader (src/parsers/config/yaml-block.ts); keys are always text.
 */
export function parseFlow(
  text: string,
  at: number,
  line: number,
  depth = 0,
  scalar: (raw: string) => FlowScalar = plain,
): { value: FastValue; end: number } {
  if (depth >= MAX_FLOW_DEPTH) throw new Unsupported();
  const closing = text[at] === '{' ? '}' : ']';
  // Only the one this collection is.
  const map: FastMap | undefined = closing === '}' ? new Map() : undefined;
  const list: FastValue[] | undefined = map ? undefined : [];
  const value = () => (map ?? list) as FastValue;
  let i = at + 1;
  while (text.charCodeAt(i) === 32) i++;
  if (text[i] === closing) return { value: value(), end: i + 1 };
  for (;;) {
    while (text.charCodeAt(i) === 32) i++;
    let key: string | undefined;
    if (map) {
      // Keys are read as text (plain gives text or null).
      const token = scalarToken(text, i, ':');
      key = (token.value as string | null) ?? '';
      i = token.end;
      if (text[i] !== ':') throw new Unsupported();
      i++;
      while (text.charCodeAt(i) === 32) i++;
    }
    let item: FastValue;
    if (text[i] === '{' || text[i] === '[') {
      const nested = parseFlow(text, i, line, depth + 1, scalar);
      item = nested.value;
      i = nested.end;
    } else {
      const token = scalarToken(text, i, closing, scalar);
      item = token.value;
      i = token.end;
    }
    if (map) {
      const size = map.size;
      map.set(key as string, { value: item, line });
      if (map.size === size) throw new Unsupported();
    } else list?.push(item);
    while (text.charCodeAt(i) === 32) i++;
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text[i] === closing) return { value: value(), end: i + 1 };
    throw new Unsupported();
  }
}

/** An indicator first, a `: ` or ` #` inside, or a `:` last: what scalarToken leaves to the library. */
const FLOW_SCALAR_OUTSIDE = /^[&*!|>%@`{[]|: | #|:$/;

function scalarToken(
  text: string,
  at: number,
  stop: string,
  scalar: (raw: string) => FlowScalar = plain,
): { value: FlowScalar; end: number } {
  if (text[at] === '"' || text[at] === "'") {
    const close = closingQuote(text, at);
    return { value: unquote(text.slice(at, close + 1)), end: close + 1 };
  }
  // Character codes, not one-character strings: a pnpm lockfile's flow values (`{integrity: sha512-…}`) are most of
  // its bytes, and this loop runs before the engine has optimized anything.
  const keyed = stop === ':';
  const length = text.length;
  let i = at;
  for (; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code === 44 /* , */ || code === 125 /* } */ || code === 93 /* ] */) break;
    // In a key, `:` ends it only before a space (`https://…` keys keep theirs).
    if (keyed && code === 58 /* : */ && text.charCodeAt(i + 1) === 32) break;
  }
  if (i >= length) throw new Unsupported();
  const raw = text.slice(at, i).trim();
  // An empty entry (`[a, , b]`, a trailing comma), a pair inside a sequence (`[a: b]`), a nested pair or a comment are
  // read by YAML in ways of their own.
  if (raw === '' || FLOW_SCALAR_OUTSIDE.test(raw)) throw new Unsupported();
  return { value: scalar(raw), end: i };
}
