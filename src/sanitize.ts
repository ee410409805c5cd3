// The output boundary. Everything downstack writes for people (a terminal, a CI log, an --output file) leaves
// through `forOutput`, which the CLI's stdout and stderr writers call on every write, so no code path can skip it:
//
// - A plain string is untrusted as a whole: control characters, ESC sequences, bidi controls and invisible format
//   characters are removed, and whatever a CI runner would read as a command (a line starting with `::`, `##[…]`,
//   `##vso[…]` anywhere) is defused. Colour is removed too: it cannot be told apart from an attacker's escapes.
// - `SafeText` passes unchanged. It is built only by the `text` tag, which cleans every interpolated value that is
//   not itself SafeText to one line (a value can never start a line of its own) and defuses any command a value
//   starts. Only SafeText can carry our own colour (`paint`), our own workflow commands (literal `::` in a `text`
//   template) and JSON escapes (`jsonDocument`).
//
// So a new writer that forgets the tag still cannot put an escape on a terminal or forge an annotation; using the tag
// also keeps every value on its line. Write `text\`${file}:${line}: ${message}\`` and pass the result to a writer.

// ESC sequences whole, so their parameters do not show up as debris: CSI, the string commands (OSC, DCS, SOS, PM,
// APC; up to their terminator, or the end of the line when a hostile one has none) and two-character escapes.
const ESCAPE_SEQUENCE =
  /\u001b(?:\[[0-?]*[ -/]*[@-~]?|[\]PX^_][^\u0007\u001b\u009c\n]*(?:\u0007|\u001b\\|\u009c)?|[ -/]*[0-~]?)/g;
// C0 and C1 controls and DEL (tab and line feed are handled apart), every format character (Cf: bidi embeddings,
// overrides, isolates and marks, U+061C, zero-width space, word joiner, BOM, tag characters…) and every other
// default-ignorable code point (Hangul fillers, variation selectors 17-256). Kept because text needs them: zero-width
// joiner and non-joiner (emoji sequences, Persian and Indic scripts) and the emoji presentation selectors.
const UNSAFE_CHAR = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]|(?!\u200c|\u200d|\ufe0e|\ufe0f)[\p{Cf}\p{DI}]/gu;
// What a terminal or a log viewer may take for a line break.
const LINE_BREAK = /\r\n?|[\u0085\u2028\u2029]/g;
const INLINE_BREAK = /\r\n|[\t\n\v\f\r\u0085\u2028\u2029]/g;
// Workflow commands: GitHub Actions reads `::name …::` at the start of a line (after white space); `##[name]`
// (GitHub's older syntax), `##vso[…]` (Azure Pipelines) and `##teamcity[…]` are read anywhere in a line.
const COMMAND_START = /^(\s*):(?=:)/gm;
const COMMAND_ANYWHERE = /#(?=#[a-z]*\[)/gi;

/** Text whose outside values were all cleaned where they were put in; writers pass it through unchanged. */
export class SafeText {
  readonly #text: string;

  constructor(text: string, key: symbol) {
    if (key !== MINT) throw new TypeError('SafeText is made with the text`…` tag, not constructed');
    this.#text = text;
  }

  get text(): string {
    return this.#text;
  }

  /** Interpolated into a plain string, SafeText becomes plain text again and is cleaned as a whole at the writer. */
  toString(): string {
    return this.#text;
  }
}

const MINT = Symbol('SafeText');

export type TextValue = string | number | SafeText;

/**
 * Template tag for every human-facing line: the literal parts are ours; every value that is not SafeText is cleaned
 * to one line (at most `VALUE_LIMIT` characters), and a workflow command that a value starts or completes is defused.
 */
export function text(literals: TemplateStringsArray, ...values: TextValue[]): SafeText {
  let out = '';
  // Start and end offsets of the parts we wrote ourselves (literals and SafeText), in order.
  const trusted: number[] = [];
  for (let i = 0; i < literals.length; i++) {
    const literal = literals[i] as string;
    trusted.push(out.length, out.length + literal.length);
    out += literal;
    if (i >= values.length) continue;
    const value = values[i] as TextValue;
    if (value instanceof SafeText) {
      trusted.push(out.length, out.length + value.text.length);
      out += value.text;
    } else out += inline(String(value));
  }
  return new SafeText(defuseOutside(out, trusted), MINT);
}

/** Longest value the `text` tag puts in as is; longer ones are cut with an ellipsis. */
export const VALUE_LIMIT = 2000;

export const NEWLINE = text`\n`;

/** SafeText parts joined by a SafeText separator (Array.join would return a plain string). */
export function joinText(parts: readonly SafeText[], separator: SafeText = NEWLINE): SafeText {
  return new SafeText(parts.map((part) => part.text).join(separator.text), MINT);
}

/** Colours a value with a chalk style; the value is cleaned first, so only our own escapes reach the terminal. */
export function paint(style: (value: string) => string, value: TextValue): SafeText {
  const inner = value instanceof SafeText ? value.text : inline(String(value));
  return new SafeText(style(inner), MINT);
}

/**
 * A JSON document for output: the data stays exact (a reader gets every character back), but characters that are
 * unsafe on a terminal are written as `\u` escapes and a CI command inside a string is broken by escaping a `#`.
 */
export function jsonDocument(value: unknown, indent = 2): SafeText {
  const json = JSON.stringify(value, null, indent) ?? 'null';
  const escaped = json
    .replace(UNSAFE_CHAR, unicodeEscape)
    .replace(/[\u2028\u2029]/g, unicodeEscape)
    .replace(COMMAND_ANYWHERE, '\\u0023');
  return new SafeText(`${escaped}\n`, MINT);
}

function unicodeEscape(char: string): string {
  let out = '';
  for (let i = 0; i < char.length; i++) out += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/** The boundary itself: what the CLI's writers put on stdout, stderr or into an --output file. */
export function forOutput(value: SafeText | string): string {
  return value instanceof SafeText ? value.text : cleanBlock(value);
}

/** One line: line breaks and runs of white space become one space; capped so one field cannot flood a report. */
export function cleanLine(value: string, maxLength = 300): string {
  const cleaned = value.replace(ESCAPE_SEQUENCE, '').replace(/\s+/g, ' ').replace(UNSAFE_CHAR, '').trim();
  return cap(cleaned, maxLength);
}

/** A value as the `text` tag puts it in: like cleanLine, but spacing (padding) is left as it is. */
function inline(value: string): string {
  return cap(value.replace(ESCAPE_SEQUENCE, '').replace(INLINE_BREAK, ' ').replace(UNSAFE_CHAR, ''), VALUE_LIMIT);
}

/** Several lines (an update's body): line breaks kept, each line cleaned, commands at line starts defused. */
export function cleanText(value: string, maxLength = 4000): string {
  return cap(cleanBlock(value), maxLength);
}

function cleanBlock(value: string): string {
  return defuseCommands(value.replace(ESCAPE_SEQUENCE, '').replace(LINE_BREAK, '\n').replace(UNSAFE_CHAR, ''));
}

function cap(value: string, maxLength: number): string {
  if (value.length <= maxLength) return value;
  // Never cut a surrogate pair in half.
  const end = /[\ud800-\udbff]/.test(value.charAt(maxLength - 2)) ? maxLength - 2 : maxLength - 1;
  return `${value.slice(0, end)}…`;
}

/** `::error` at a line start becomes `: :error`, `##[` becomes `# #[`: readable, and no runner takes it as a command. */
function defuseCommands(value: string): string {
  return value.replace(COMMAND_START, '$1: ').replace(COMMAND_ANYWHERE, '# ');
}

/**
 * Defuses commands except those written wholly inside one trusted part (our literal `::warning …::` line): a command
 * whose first characters come from a value, or from two parts side by side, is broken with a space.
 */
function defuseOutside(value: string, trusted: number[]): string {
  const breaks: number[] = [];
  const withinOnePart = (from: number, to: number) => {
    for (let i = 0; i < trusted.length; i += 2)
      if (from >= (trusted[i] as number) && to < (trusted[i + 1] as number)) return true;
    return false;
  };
  for (const match of value.matchAll(COMMAND_START)) {
    const colon = (match.index ?? 0) + (match[1] as string).length;
    if (!withinOnePart(colon, colon + 1)) breaks.push(colon + 1);
  }
  for (const match of value.matchAll(COMMAND_ANYWHERE)) {
    const hash = match.index ?? 0;
    const bracket = value.indexOf('[', hash);
    if (!withinOnePart(hash, bracket)) breaks.push(hash + 1);
  }
  if (breaks.length === 0) return value;
  breaks.sort((a, b) => a - b);
  let out = '';
  let from = 0;
  for (const at of breaks) {
    out += `${value.slice(from, at)} `;
    from = at;
  }
  return out + value.slice(from);
}
