// Splits HCL native syntax (https://github.com/hashicorp/hcl/blob/main/hclsyntax/spec.md) into top-level items
// without parsing expressions, so one broken block is reported at its own line and every other block still counts.

export interface HclBlockItem {
  kind: 'block';
  type: string;
  labels: string[];
  /** 1-based line of the block header. */
  line: number;
  /** The whole block, header to closing brace: what the full parser gets. */
  text: string;
  /** Between the braces; enough to decide whether the header alone says all we need. */
  body: string;
}

export interface HclAttributeItem {
  kind: 'attribute';
  name: string;
  line: number;
  text: string;
}

export type HclItem = HclBlockItem | HclAttributeItem;

export interface HclSplit {
  items: HclItem[];
  errors: Array<{ line: number; message: string }>;
}

class ScanError extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

const NL = 10;
const CLOSERS: Record<string, string> = { '{': '}', '(': ')', '[': ']' };
/** A top-level block header at the start of a line: where scanning picks up again after a broken block. */
const HEADER_LINE = /^[A-Za-z_][\w-]*(?:[ \t]+(?:"[^"\n]*"|[A-Za-z_][\w-]*))*[ \t]*\{/;
const ATTRIBUTE_LINE = /^[A-Za-z_][\w-]*[ \t]*=(?!=)/;

export function splitHcl(text: string): HclSplit {
  const scanner = new Scanner(text);
  const items: HclItem[] = [];
  const errors: HclSplit['errors'] = [];
  let pos = 0;
  while (true) {
    try {
      pos = scanner.skipSpace(pos, true);
    } catch (error) {
      if (!(error instanceof ScanError)) throw error;
      errors.push({
        line: scanner.lineOf(error.offset),
        message: `${error.message}; the text up to the next block is skipped`,
      });
      pos = scanner.nextItemLine(error.offset);
      continue;
    }
    if (pos >= text.length) break;
    const start = pos;
    const line = scanner.lineOf(start);
    let described = 'this item';
    try {
      const name = scanner.identifier(pos);
      if (!name) throw new ScanError(pos, `unexpected ${JSON.stringify(text[pos])} at the top level`);
      pos = scanner.skipSpace(pos + name.length, false);
      if (text[pos] === '=' && text[pos + 1] !== '=') {
        described = `attribute ${name}`;
        const end = scanner.expressionEnd(pos + 1);
        items.push({ kind: 'attribute', name, line, text: text.slice(start, end) });
        pos = end;
        continue;
      }
      const labels: string[] = [];
      while (text[pos] !== '{') {
        if (text[pos] === '"') {
          const end = scanner.quotedEnd(pos);
          labels.push(JSON.parse(text.slice(pos, end)) as string);
          pos = end;
        } else {
          const label = scanner.identifier(pos);
          if (!label) throw new ScanError(pos, `expected a block label or "{" after ${name}`);
          labels.push(label);
          pos += label.length;
        }
        pos = scanner.skipSpace(pos, false);
      }
      described = [name, ...labels.map((label) => JSON.stringify(label))].join(' ');
      const bodyStart = pos + 1;
      const end = scanner.balancedEnd(pos);
      items.push({
        kind: 'block',
        type: name,
        labels,
        line,
        text: text.slice(start, end),
        body: text.slice(bodyStart, end - 1),
      });
      pos = end;
    } catch (error) {
      if (!(error instanceof ScanError)) throw error;
      const at = scanner.lineOf(error.offset);
      errors.push({ line, message: `${described}: ${error.message}${at !== line ? ` (line ${at})` : ''}; skipped` });
      pos = scanner.nextItemLine(start);
    }
  }
  return { items, errors };
}

class Scanner {
  private lineStarts: number[] | undefined;
  constructor(private readonly text: string) {}

  lineOf(offset: number): number {
    this.lineStarts ??= computeLineStarts(this.text);
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.lineStarts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  }

  identifier(pos: number): string | undefined {
    return /^[A-Za-z_][\w-]*/.exec(this.text.slice(pos, pos + 256))?.[0];
  }

  /** Skips blanks and comments; newlines too when `newlines`. */
  skipSpace(pos: number, newlines: boolean): number {
    const text = this.text;
    while (pos < text.length) {
      const c = text[pos];
      if (c === ' ' || c === '\t' || c === '\r' || (newlines && c === '\n')) pos++;
      else if (c === '#' || (c === '/' && text[pos + 1] === '/')) pos = this.lineEnd(pos);
      else if (c === '/' && text[pos + 1] === '*') pos = this.commentEnd(pos);
      else break;
    }
    return pos;
  }

  /** Offset just past the closing bracket matching the one at `pos`, skipping strings, heredocs and comments. */
  balancedEnd(pos: number): number {
    const text = this.text;
    const stack: string[] = [];
    let i = pos;
    while (i < text.length) {
      const c = text[i] as string;
      if (c === '"') i = this.quotedEnd(i);
      else if (c === '#' || (c === '/' && text[i + 1] === '/')) i = this.lineEnd(i);
      else if (c === '/' && text[i + 1] === '*') i = this.commentEnd(i);
      else if (c === '<' && text[i + 1] === '<' && this.heredocMarker(i)) i = this.heredocEnd(i);
      else if (c === '{' || c === '(' || c === '[') {
        stack.push(CLOSERS[c] as string);
        i++;
      } else if (c === '}' || c === ')' || c === ']') {
        const expected = stack.pop();
        if (expected !== c) throw new ScanError(i, `unexpected "${c}"${expected ? ` (expected "${expected}")` : ''}`);
        i++;
        if (stack.length === 0) return i;
      } else i++;
    }
    throw new ScanError(pos, `"${text[pos]}" is never closed`);
  }

  /** End of a top-level attribute's expression: the first newline outside brackets. */
  expressionEnd(pos: number): number {
    const text = this.text;
    let i = pos;
    while (i < text.length) {
      const c = text[i];
      if (c === '\n') return i;
      if (c === '{' || c === '(' || c === '[') i = this.balancedEnd(i);
      else if (c === '"') i = this.quotedEnd(i);
      else if (c === '#' || (c === '/' && text[i + 1] === '/')) return this.lineEnd(i);
      else if (c === '/' && text[i + 1] === '*') i = this.commentEnd(i);
      else if (c === '<' && text[i + 1] === '<' && this.heredocMarker(i)) i = this.heredocEnd(i);
      else if (c === '}' || c === ')' || c === ']') throw new ScanError(i, `unexpected "${c}"`);
      else i++;
    }
    return i;
  }

  /** Offset past a quoted template; `${…}` and `%{…}` may hold nested strings, a bare newline may not. */
  quotedEnd(pos: number): number {
    const text = this.text;
    let i = pos + 1;
    while (i < text.length) {
      const c = text[i];
      if (c === '\\') i += 2;
      else if (c === '"') return i + 1;
      else if (c === '\n') throw new ScanError(pos, 'string is not closed on its line');
      else if ((c === '$' || c === '%') && text[i + 1] === '{') {
        if (text[i + 2] === c)
          i += 3; // `$${` is an escaped literal, not an interpolation
        else i = this.balancedEnd(i + 1);
      } else i++;
    }
    throw new ScanError(pos, 'string is never closed');
  }

  private heredocMarker(pos: number): string | undefined {
    return /^<<-?([A-Za-z_][\w-]*)[ \t]*\r?\n/.exec(this.text.slice(pos, pos + 256))?.[1];
  }

  /** Heredoc content is taken as-is up to the line that holds only the marker. */
  private heredocEnd(pos: number): number {
    const text = this.text;
    const marker = this.heredocMarker(pos) as string;
    let lineStart = text.indexOf('\n', pos) + 1;
    while (lineStart > 0 && lineStart <= text.length) {
      const lineEnd = text.indexOf('\n', lineStart);
      const stop = lineEnd < 0 ? text.length : lineEnd;
      if (text.slice(lineStart, stop).trim() === marker) return stop;
      if (lineEnd < 0) break;
      lineStart = lineEnd + 1;
    }
    throw new ScanError(pos, `heredoc <<${marker} is never closed`);
  }

  private lineEnd(pos: number): number {
    const end = this.text.indexOf('\n', pos);
    return end < 0 ? this.text.length : end;
  }

  private commentEnd(pos: number): number {
    const end = this.text.indexOf('*/', pos + 2);
    if (end < 0) throw new ScanError(pos, 'comment is never closed');
    return end + 2;
  }

  /** The next line after `from`'s line that starts (in column 0) like a block header or an attribute. */
  nextItemLine(from: number): number {
    const text = this.text;
    let lineStart = text.indexOf('\n', from) + 1;
    while (lineStart > 0 && lineStart < text.length) {
      const lineEnd = text.indexOf('\n', lineStart);
      const line = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd);
      if (HEADER_LINE.test(line) || ATTRIBUTE_LINE.test(line)) return lineStart;
      if (lineEnd < 0) break;
      lineStart = lineEnd + 1;
    }
    return text.length;
  }
}

function computeLineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === NL) starts.push(i + 1);
  return starts;
}
