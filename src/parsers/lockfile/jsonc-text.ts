// JSONC (JSON with comments and trailing commas) built on jsonc-parser's visitor, so that objects have no
// prototype (a `__proto__` key is just a key), duplicate keys are reported, and every key keeps its line.
import { visit } from 'jsonc-parser';
import { ParseError } from '../../errors.js';
import { describeJsonError } from '../../json-text.js';
import type { InputProblem } from '../../model.js';

export interface JsoncResult {
  value: unknown;
  /** Line of each key, per object. */
  lines: WeakMap<object, Map<string, number>>;
}

export function parseJsoncText(text: string, path: string, problems: InputProblem[]): JsoncResult {
  assertShallow(text, path);
  const lines = new WeakMap<object, Map<string, number>>();
  const stack: Array<Record<string, unknown> | unknown[]> = [];
  let root: unknown;
  let pendingKey: string | undefined;
  let failure: ParseError | undefined;

  const place = (value: unknown) => {
    const parent = stack.at(-1);
    if (parent === undefined) root = value;
    else if (Array.isArray(parent)) parent.push(value);
    else if (pendingKey !== undefined) parent[pendingKey] = value;
    pendingKey = undefined;
  };
  const open = (container: Record<string, unknown> | unknown[]) => {
    place(container);
    stack.push(container);
  };
  const close = () => {
    stack.pop();
  };

  visit(
    text,
    {
      onObjectBegin: () => open(Object.create(null) as Record<string, unknown>),
      onObjectEnd: close,
      onArrayBegin: () => open([]),
      onArrayEnd: close,
      onObjectProperty: (property, _offset, _length, startLine) => {
        const parent = stack.at(-1) as Record<string, unknown>;
        let keyLines = lines.get(parent);
        if (!keyLines) lines.set(parent, (keyLines = new Map()));
        if (Object.hasOwn(parent, property))
          problems.push({
            file: path,
            line: startLine + 1,
            message: `duplicate key ${JSON.stringify(property)}; the later one is used`,
          });
        keyLines.set(property, startLine + 1);
        pendingKey = property;
      },
      onLiteralValue: (value) => place(value),
      onError: (error, _offset, _length, startLine, startCharacter) => {
        failure ??= new ParseError(
          path,
          startLine + 1,
          `invalid JSON at column ${startCharacter + 1}: ${describeJsonError(error)}`,
        );
      },
    },
    { allowTrailingComma: true, disallowComments: false },
  );
  if (failure) throw failure;
  if (stack.length > 0) throw new ParseError(path, text.split('\n').length, 'JSON ends early (truncated file?)');
  return { value: root, lines };
}

/** Deeper nesting than any lockfile has; the JSONC reader recurses, so deeper input is refused before it is read. */
const MAX_NESTING = 256;

/** Throws at the line where brackets outside strings and comments nest deeper than MAX_NESTING. One linear pass. */
function assertShallow(text: string, path: string): void {
  let depth = 0;
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === 10) line++;
    else if (char === 34 /* " */) {
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) {
        if (text.charCodeAt(i) === 92 /* \ */) i++;
        else if (text.charCodeAt(i) === 10) line++;
      }
    } else if (char === 47 /* / */ && text.charCodeAt(i + 1) === 47) {
      while (i + 1 < text.length && text.charCodeAt(i + 1) !== 10) i++;
    } else if (char === 47 && text.charCodeAt(i + 1) === 42 /* * */) {
      for (i += 2; i < text.length && !(text.charCodeAt(i) === 42 && text.charCodeAt(i + 1) === 47); i++)
        if (text.charCodeAt(i) === 10) line++;
      i++;
    } else if (char === 123 /* { */ || char === 91 /* [ */) {
      if (++depth > MAX_NESTING)
        throw new ParseError(
          path,
          line,
          `nested more than ${MAX_NESTING} levels deep (far deeper than any lockfile); not read`,
        );
    } else if (char === 125 /* } */ || char === 93 /* ] */) depth--;
  }
}
