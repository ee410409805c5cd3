// The polyglot fixture project (test/fixtures/ecosystems/polyglot): each file shaped like its tool's output.
import { readFileSync } from 'node:fs';
import type { Dependency } from '../../src/model.js';

export const POLYGLOT = 'test/fixtures/ecosystems/polyglot';

export function polyglot(relative: string): { text: string; path: string } {
  const path = `${POLYGLOT}/${relative}`;
  return { text: readFileSync(path, 'utf8'), path };
}

/** One dependency by name, failing loudly when the parser did not produce it. */
export function byName(dependencies: Dependency[], name: string): Dependency {
  const found = dependencies.find((dependency) => dependency.name === name);
  if (!found) throw new Error(`no dependency named ${name} among ${dependencies.map((d) => d.name).join(', ')}`);
  return found;
}
