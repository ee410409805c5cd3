// A block body as the evaluator reads it: by attribute name. Over native text each attribute is read on its own
// (hcl-values.ts) and the full parser runs only for what that declines, so a module's long variable descriptions,
// validations, dynamic blocks and policies are balanced by the block scanner and never parsed.
import { isRecord } from '../../json-text.js';
import { type HclBlockItem, splitHcl } from './hcl-items.js';
import { exactValue, resolvableValue } from './hcl-values.js';

export type Body = Record<string, unknown>;

export interface BodyView {
  /** Top-level attribute names and nested block types: the full parse's keys. */
  names(): string[];
  has(name: string): boolean;
  /** What the full parse holds under `name` (a nested block type gives the parse's list of bodies). */
  get(name: string): unknown;
  /** Like `get`, for a value that is only resolved: one that can resolve to nothing may be OPAQUE, unparsed. */
  resolvable(name: string): unknown;
  /** The nested blocks of a type, in order: the parse's bodies under `type` (an attribute's objects too). */
  blocks(type: string): BodyView[];
  /** Whether `name` is a nested block the view reads itself (its values come through `blocks`, not `get`). */
  nested(name: string): boolean;
}

/** A parsed body (JSON, or native text the full parser read). */
export function fullView(body: Body): BodyView {
  return {
    names: () => Object.keys(body),
    has: (name) => name in body,
    get: (name) => body[name],
    resolvable: (name) => body[name],
    blocks: (type) => nestedBodies(body[type]).map(fullView),
    nested: () => false,
  };
}

export interface ShallowBody {
  /** Attribute name → its expression text. */
  attributes: Map<string, string>;
  nested: Map<string, HclBlockItem[]>;
}

/**
 * The top level of a native body, or undefined when the scanner finds it broken or a name twice (the full parser
 * then decides what the body holds, or reports it).
 */
export function readShallow(text: string): ShallowBody | undefined {
  const split = splitHcl(text);
  if (split.errors.length > 0) return undefined;
  const attributes = new Map<string, string>();
  const nested = new Map<string, HclBlockItem[]>();
  for (const item of split.items) {
    if (item.kind === 'attribute') {
      if (attributes.has(item.name) || nested.has(item.name)) return undefined;
      attributes.set(item.name, item.text.slice(item.text.indexOf('=') + 1));
    } else {
      if (attributes.has(item.type)) return undefined;
      const list = nested.get(item.type);
      if (list) list.push(item);
      else nested.set(item.type, [item]);
    }
  }
  return { attributes, nested };
}

/** A view over a shallow read; `full` is the block's full parse (cached, problems reported by it), used on decline. */
export function shallowView(shallow: ShallowBody, full: () => Body | undefined): BodyView {
  const fromFull = (name: string) => full()?.[name];
  const view: BodyView = {
    names: () => [...shallow.attributes.keys(), ...shallow.nested.keys()].sort(),
    has: (name) => shallow.attributes.has(name) || shallow.nested.has(name),
    get(name) {
      const expression = shallow.attributes.get(name);
      if (expression === undefined) return shallow.nested.has(name) ? fromFull(name) : undefined;
      const read = exactValue(expression);
      return read ? read.value : fromFull(name);
    },
    resolvable(name) {
      const expression = shallow.attributes.get(name);
      if (expression === undefined) return shallow.nested.has(name) ? fromFull(name) : undefined;
      const read = resolvableValue(expression);
      return read ? read.value : fromFull(name);
    },
    blocks(type) {
      if (shallow.attributes.has(type)) return nestedBodies(view.get(type)).map(fullView);
      const items = shallow.nested.get(type) ?? [];
      // Labelled nested blocks nest under their labels in the parse; those come from it as they are.
      if (items.some((item) => item.labels.length > 0)) return fullView(full() ?? {}).blocks(type);
      return items.map((item, index) => {
        const fullNested = () => {
          const body = nestedBodies(full()?.[type])[index];
          return isRecord(body) ? body : undefined;
        };
        const inner = readShallow(item.body);
        return inner ? shallowView(inner, fullNested) : fullView(fullNested() ?? {});
      });
    },
    nested: (name) => shallow.nested.has(name),
  };
  return view;
}

/**
 * Hands `visit` every value the full parse holds under `name`, in its order (a body's keys sorted, as the parse
 * writes them), reading nested blocks attribute by attribute so that only what the view declines is parsed.
 */
export function visitValues(view: BodyView, name: string, visit: (value: unknown) => void): void {
  if (!view.nested(name)) {
    visit(view.get(name));
    return;
  }
  for (const block of view.blocks(name)) for (const inner of block.names()) visitValues(block, inner, visit);
}

/** JSON writes one block as an object and repeated blocks as an array of objects; native HCL always as an array. */
function nestedBodies(value: unknown): Body[] {
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]).filter(isRecord);
}
