// hcl2-parser (https://github.com/benc-uk/hcl2-parser, HashiCorp's HCL v2 compiled to JavaScript) loaded on
// first use: loading costs a large part of a second, so a scan without Terraform never pays for it.
import { createRequire } from 'node:module';

type ParseToObject = (source: string) => [unknown, unknown];

let parseToObject: ParseToObject | undefined;
let parses = 0;

/**
 * Loading the compiled Go runtime sets `Error.stackTraceLimit = Infinity` and assigns `global.require` for the
 * whole process; both are put back so the rest of the program keeps normal stack traces and an ESM global scope.
 */
function load(): ParseToObject {
  const global = globalThis as { require?: unknown };
  const hadRequire = Object.hasOwn(global, 'require');
  const savedRequire = global.require;
  const savedLimit = Error.stackTraceLimit;
  try {
    const module = createRequire(import.meta.url)('hcl2-parser') as { parseToObject: ParseToObject };
    return module.parseToObject;
  } finally {
    Error.stackTraceLimit = savedLimit;
    if (hadRequire) global.require = savedRequire;
    else delete global.require;
  }
}

export class HclSyntaxError extends Error {
  override name = 'HclSyntaxError';
}

/** One HCL text → the parser's object (blocks as arrays, expressions as `"${…}"` strings). */
export function parseHcl(source: string): Record<string, unknown> {
  parseToObject ??= load();
  parses++;
  const [value, error] = parseToObject(source);
  // On a syntax error the parser returns an empty error object: there is no message or position to pass on.
  if (error !== null && error !== undefined) throw new HclSyntaxError(describe(error));
  if (typeof value !== 'object' || value === null) throw new HclSyntaxError('the HCL parser returned nothing');
  return value as Record<string, unknown>;
}

function describe(error: unknown): string {
  const message = typeof error === 'string' ? error : (error as { message?: unknown }).message;
  return typeof message === 'string' && message.trim() !== ''
    ? message.trim()
    : 'syntax error (the HCL parser gives no detail)';
}

/** For tests: whether the parser has been loaded in this process. */
export function hclLoaded(): boolean {
  return parseToObject !== undefined;
}

/** For tests and the bench: how many texts (blocks, or tfvars values) the parser has read in this process. */
export function hclParseCount(): number {
  return parses;
}
