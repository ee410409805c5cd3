// The HCL expressions that decide a provider, a region or a module source are nearly always simple: a quoted string,
// a reference, a small object. This reads those without the full parser and gives exactly the value it would give
// (hcl2-parser is hcl2json v0.3.3: https://github.com/tmccombs/hcl2json/blob/v0.3.3/convert/convert.go), so the
// slow parser only sees what this declines. Syntax: https://github.com/hashicorp/hcl/blob/main/hclsyntax/spec.md

/**
 * An expression whose value is certain to resolve to no region, source or variable value (a function call, a
 * conditional, a list, an object): the callers that only resolve a value get this instead of a parse.
 */
export const OPAQUE: unique symbol = Symbol('an expression that resolves to nothing');

class Declined extends Error {}

/**
 * The value the full parser gives for `text` (one attribute's expression), or undefined when the expression is
 * outside what this reads exactly: string literals and templates whose interpolations are references (printable
 * ASCII, no escapes or directives), numbers, true/false/null, references, and lists and objects of those.
 */
export function exactValue(text: string): { value: unknown } | undefined {
  try {
    const reader = new Reader(text);
    const value = reader.value(reader.space(0));
    return reader.space(value.end) === text.length ? { value: value.value } : undefined;
  } catch (error) {
    if (error instanceof Declined) return undefined;
    throw error;
  }
}

/**
 * For callers that only resolve a value: the exact value, or OPAQUE when the expression can only resolve to nothing,
 * or undefined when only the full parser can tell. The parser gives a non-literal expression as `${…}` around its
 * source text, a list or an object, so OPAQUE is certain (comments aside) for text that
 * - starts with `[`, `{`, `!` or `(` (a list, an object, a for expression, a negation, a parenthesised expression);
 * - starts with a name other than true/false/null and holds more than a name's characters and dots;
 * - is a template with an interpolation that starts with such a name, or with a directive (`%{if …}`), unless it
 *   is that single interpolation around a reference (read exactly above);
 * - is a heredoc holding such an interpolation or a directive.
 * What a resolution takes from these (a plain string, or exactly `${reference}`) they never are.
 */
export function resolvableValue(text: string): { value: unknown } | undefined {
  const exact = exactValue(text);
  if (exact) return exact;
  if (/^\s*<</.test(text)) return heredoc(text);
  if (/^\s*[[{!(]/.test(text)) return { value: OPAQUE };
  const code = withoutComments(text)?.trim();
  if (code === undefined || code === '') return undefined;
  const first = code[0] as string;
  if (/[A-Za-z_]/.test(first)) return !KEYWORD_FIRST.test(code) && /[^\w.-]/.test(code) ? { value: OPAQUE } : undefined;
  if (first === '"') {
    const template = templateParts(code, 0);
    if (!template || template.end !== code.length) return undefined;
    const only = template.interpolations.length === 1 && !template.literal && !template.directive;
    if (only && /^[\w.\s-]*$/.test(template.interpolations[0] as string)) return undefined;
    return template.directive || template.interpolations.some(startsWithName) ? { value: OPAQUE } : undefined;
  }
  return undefined;
}

const KEYWORD_FIRST = /^(true|false|null|for)(?![\w-])/;

function startsWithName(interpolation: string): boolean {
  const inner = interpolation.trim();
  return /^[A-Za-z_]/.test(inner) && !KEYWORD_FIRST.test(inner);
}

/**
 * A heredoc attribute: OPAQUE when it interpolates a name or holds a directive (the value then holds `${` or `%{`
 * and ends in a newline), its exact text when it is plain and either not indented (`<<EOT`) or indented with spaces
 * on every line but blank ones (`<<-EOT`, whose smallest indent is removed); the rest is for the full parser.
 */
function heredoc(text: string): { value: unknown } | undefined {
  const open = /^\s*<<(-?)([A-Za-z_][\w-]*)[ \t]*\n/.exec(text);
  if (!open || text.includes('\r')) return undefined;
  const lines = text.slice(open[0].length).split('\n');
  while (lines.length > 0 && (lines.at(-1) as string).trim() === '') lines.pop();
  if (lines.pop()?.trim() !== open[2]) return undefined;
  const content = lines.join('\n');
  if (/\$\$\{|%%\{/.test(content) || content !== content.normalize('NFC')) return undefined;
  let interpolated = /%\{/.test(content);
  for (const match of content.matchAll(/\$\{([^}]*)\}?/g)) {
    if (startsWithName(match[1] ?? '')) interpolated = true;
    else return undefined;
  }
  if (interpolated) return { value: OPAQUE };
  if (content.includes('${')) return undefined;
  if (open[1] === '') return { value: lines.map((line) => `${line}\n`).join('') };
  // HCL leaves a blank line (blanks only) as written and out of the smallest indent; the other lines must start
  // with spaces and then a character that is neither a blank nor one a space could join (a mark, a format character),
  // since HCL counts the indent in grapheme clusters.
  const blank = (line: string) => /^[ \t]*$/.test(line);
  const written = lines.filter((line) => !blank(line));
  if (written.some((line) => !/^ *[^\s\p{M}\p{Cf}\u0085]/u.test(line))) return undefined;
  const indent = Math.min(...written.map((line) => /^ */.exec(line)?.[0].length ?? 0));
  return { value: lines.map((line) => `${blank(line) ? line : line.slice(indent)}\n`).join('') };
}

/** The text without comments, or undefined when a heredoc or an unclosed string makes that unsure. */
function withoutComments(text: string): string | undefined {
  if (text.includes('<<')) return undefined;
  let out = '';
  for (let i = 0; i < text.length; ) {
    const c = text[i] as string;
    if (c === '"') {
      const template = templateParts(text, i);
      if (!template) return undefined;
      out += text.slice(i, template.end);
      i = template.end;
    } else if (c === '#' || (c === '/' && text[i + 1] === '/')) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) return undefined;
      out += ' ';
      i = end + 2;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

interface TemplateParts {
  end: number;
  /** The text inside each `${…}`. */
  interpolations: string[];
  /** Whether any literal text (escapes included) sits between them. */
  literal: boolean;
  directive: boolean;
}

/** The parts of the quoted template opening at `pos`, nested strings inside interpolations skipped. */
function templateParts(text: string, pos: number): TemplateParts | undefined {
  const parts: TemplateParts = { end: 0, interpolations: [], literal: false, directive: false };
  let i = pos + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      parts.end = i + 1;
      return parts;
    }
    if (c === '\n') return undefined;
    if ((c === '$' || c === '%') && text[i + 1] === c && text[i + 2] === '{') {
      parts.literal = true;
      i += 3;
    } else if ((c === '$' || c === '%') && text[i + 1] === '{') {
      const close = closingBrace(text, i + 2);
      if (close === undefined) return undefined;
      if (c === '$') parts.interpolations.push(text.slice(i + 2, close));
      else parts.directive = true;
      i = close + 1;
    } else {
      parts.literal = true;
      i += c === '\\' ? 2 : 1;
    }
  }
  return undefined;
}

/** The `}` closing an interpolation whose text starts at `pos`, across nested brackets and strings. */
function closingBrace(text: string, pos: number): number | undefined {
  let depth = 0;
  for (let i = pos; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const inner = templateParts(text, i);
      if (!inner) return undefined;
      i = inner.end - 1;
    } else if (c === '{' || c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === '}') {
      if (depth === 0) return i;
      depth--;
    } else if (c === '\n') return undefined;
  }
  return undefined;
}

const TRAVERSAL = /[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
/** Literal template text: printable ASCII without the characters that start an escape, a template or the end. */
const LITERAL_CHARS = /[\x20-\x21\x23\x26-\x5b\x5d-\x7e]*/y;

class Reader {
  constructor(private readonly text: string) {}

  /** Past blanks, comments and newlines (newlines only inside brackets, where HCL allows them, or at the end). */
  space(pos: number): number {
    while (true) {
      pos = this.spaceOnLine(pos);
      if (this.text[pos] === '\n') pos++;
      else return pos;
    }
  }

  /** Past blanks and comments, up to a newline; `/* … *\/` holding a newline is declined. */
  private spaceOnLine(pos: number): number {
    const text = this.text;
    while (pos < text.length) {
      const c = text[pos];
      if (c === ' ' || c === '\t' || c === '\r') pos++;
      else if (c === '#' || (c === '/' && text[pos + 1] === '/')) {
        const end = text.indexOf('\n', pos);
        pos = end < 0 ? text.length : end;
      } else if (c === '/' && text[pos + 1] === '*') {
        const end = text.indexOf('*/', pos + 2);
        if (end < 0 || text.slice(pos, end).includes('\n')) throw new Declined();
        pos = end + 2;
      } else break;
    }
    return pos;
  }

  value(pos: number): { value: unknown; end: number } {
    const c = this.text[pos];
    if (c === '"') return this.template(pos);
    if (c === '[') return this.tuple(pos);
    if (c === '{') return this.object(pos);
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
      const match = this.match(NUMBER, pos);
      if (!match || /[\w.]/.test(this.text[pos + match.length] ?? '')) throw new Declined();
      return { value: Number(match), end: pos + match.length };
    }
    const traversal = this.match(TRAVERSAL, pos);
    if (!traversal) throw new Declined();
    const end = pos + traversal.length;
    if (traversal === 'true' || traversal === 'false' || traversal === 'null')
      return { value: traversal === 'null' ? null : traversal === 'true', end };
    if (/^(true|false|null|for)\./.test(traversal) || traversal === 'for') throw new Declined();
    return { value: `\${${traversal}}`, end };
  }

  /** A quoted template: literal text and `${reference}` parts, rendered as the parser renders them. */
  private template(pos: number): { value: unknown; end: number } {
    const text = this.text;
    let out = '';
    let i = pos + 1;
    while (true) {
      const literal = this.match(LITERAL_CHARS, i) ?? '';
      out += literal;
      i += literal.length;
      const c = text[i];
      if (c === '"') return { value: out, end: i + 1 };
      if (c === '$' && text[i + 1] === '{' && text[i - 1] !== '$') {
        const start = this.spaceOnLine(i + 2);
        const traversal = this.match(TRAVERSAL, start);
        if (!traversal || /^(true|false|null|for)(\.|$)/.test(traversal)) throw new Declined();
        const close = this.spaceOnLine(start + traversal.length);
        if (text[close] !== '}') throw new Declined();
        out += `\${${traversal}}`;
        i = close + 1;
      } else if ((c === '$' || c === '%') && text[i + 1] !== '{') {
        out += c;
        i++;
      } else throw new Declined();
    }
  }

  private tuple(pos: number): { value: unknown[]; end: number } {
    const items: unknown[] = [];
    let i = this.space(pos + 1);
    while (this.text[i] !== ']') {
      const item = this.value(i);
      items.push(item.value);
      i = this.space(item.end);
      if (this.text[i] === ',') i = this.space(i + 1);
      else if (this.text[i] !== ']') throw new Declined();
    }
    return { value: items, end: i + 1 };
  }

  /** Keys are names (a dotted name is kept as written, like `aws.src` in a providers map) or plain strings. */
  private object(pos: number): { value: Record<string, unknown>; end: number } {
    const entries: Array<[string, unknown]> = [];
    let i = this.space(pos + 1);
    while (this.text[i] !== '}') {
      let key: string;
      let keyEnd: number;
      if (this.text[i] === '"') {
        const quoted = this.template(i);
        if (typeof quoted.value !== 'string' || quoted.value.includes('${')) throw new Declined();
        key = quoted.value;
        keyEnd = quoted.end;
      } else {
        const name = this.match(TRAVERSAL, i);
        if (!name || /^(true|false|null|for)(\.|$)/.test(name)) throw new Declined();
        key = name;
        keyEnd = i + name.length;
      }
      const equals = this.spaceOnLine(keyEnd);
      if (this.text[equals] !== '=' || this.text[equals + 1] === '=') throw new Declined();
      const item = this.value(this.spaceOnLine(equals + 1));
      entries.push([key, item.value]);
      // Items end at a comma or a newline.
      i = this.spaceOnLine(item.end);
      if (this.text[i] === ',') i++;
      else if (this.text[i] !== '\n' && this.text[i] !== '\r' && this.text[i] !== '}') throw new Declined();
      i = this.space(i);
    }
    // The parser's objects come out of a Go map: keys sorted, the last of repeated keys kept.
    const value: Record<string, unknown> = {};
    const last = new Map(entries);
    for (const key of [...last.keys()].sort()) value[key] = last.get(key);
    return { value, end: i + 1 };
  }

  private match(pattern: RegExp, pos: number): string | undefined {
    pattern.lastIndex = pos;
    return pattern.exec(this.text)?.[0];
  }
}
