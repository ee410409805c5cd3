// The text `terraform providers` prints (https://developer.hashicorp.com/terraform/cli/commands/providers), pasted:
// a tree of `provider[<source>] <constraint>` lines under the root and each `module.<name>`.
import { ParseError } from '../errors.js';
import type { Dependency } from '../model.js';
import { providerSource } from '../terraform-names.js';
import type { Parser, ParseResult } from './types.js';

const PROVIDER = /provider\[([^\]\s]+)\](.*)$/;
const MODULE = /(module\.[\w-]+)\s*$/;

export function parseTerraformProvidersText(text: string, path: string): ParseResult {
  const dependencies: Dependency[] = [];
  const seen = new Set<string>();
  // The tree nests by column: a module line opens a level that lasts while later lines sit further right.
  let stack: Array<{ column: number; name: string }> = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((line, index) => {
    if (/^Providers required by/.test(line)) {
      stack = [];
      return;
    }
    const provider = PROVIDER.exec(line);
    const module = provider ? undefined : MODULE.exec(line);
    const match = provider ?? module;
    if (!match) return;
    const column = match.index;
    while (stack.length > 0 && (stack.at(-1)?.column ?? 0) >= column) stack.pop();
    if (module) {
      stack.push({ column, name: module[1] as string });
      return;
    }
    const name = providerSource(provider?.[1] as string);
    const version = (provider?.[2] ?? '').trim();
    const modules = stack.map((level) => level.name);
    const key = `${name}\u0000${version}\u0000${modules.join('.')}`;
    if (seen.has(key)) return;
    seen.add(key);
    dependencies.push({
      ecosystem: 'terraform-provider',
      name,
      ...(version ? { version } : {}),
      file: path,
      line: index + 1,
      direct: modules.length === 0,
      via: [path, ...modules, name],
    });
  });
  if (dependencies.length === 0)
    throw new ParseError(path, 1, 'no provider[…] lines found in this `terraform providers` output');
  return { dependencies, errors: [] };
}

export const terraformProvidersTextParser: Parser = {
  kind: 'terraform-providers',
  // Only ever pasted or named explicitly: no file name is typical for it.
  matches: () => false,
  sniff: (text) => /^Providers required by (configuration|state):/m.test(text),
  parse: parseTerraformProvidersText,
};
