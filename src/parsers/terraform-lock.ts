// .terraform.lock.hcl (https://developer.hashicorp.com/terraform/language/files/dependency-lock): the exact
// provider versions `terraform init` selected, one `provider "<source>"` block each.
import { ParseError } from '../errors.js';
import type { Dependency } from '../model.js';
import { providerSource } from '../terraform-names.js';
import { splitHcl } from './terraform/hcl-items.js';
import { basename, type Parser, type ParseResult } from './types.js';

/** The lock file holds only literal strings, so the block scanner and one pattern read it; no HCL parser needed. */
const VERSION = /^[ \t]*version[ \t]*=[ \t]*"([^"\n]*)"/m;

export function parseTerraformLock(text: string, path: string): ParseResult {
  const split = splitHcl(text);
  const errors: ParseResult['errors'] = split.errors.map((problem) => ({
    file: path,
    line: problem.line,
    message: problem.message,
  }));
  const dependencies: Dependency[] = [];
  for (const item of split.items) {
    if (item.kind !== 'block' || item.type !== 'provider' || item.labels.length !== 1) {
      errors.push({
        file: path,
        line: item.line,
        message: `${item.kind === 'block' ? item.type : item.name}: a lock file holds only provider "<source>" blocks; skipped`,
      });
      continue;
    }
    const name = providerSource(item.labels[0] as string);
    const version = VERSION.exec(item.body)?.[1];
    dependencies.push({
      ecosystem: 'terraform-provider',
      name,
      ...(version ? { version } : {}),
      file: path,
      line: item.line,
      direct: true,
      via: [path, name],
    });
  }
  if (dependencies.length === 0 && errors.length > 0)
    throw new ParseError(path, errors[0]?.line, errors[0]?.message ?? 'no provider blocks');
  return { dependencies, errors };
}

export const terraformLockParser: Parser = {
  kind: 'terraform-lock',
  matches: (path) => basename(path) === '.terraform.lock.hcl',
  sniff: (text) => /^provider[ \t]+"[^"\n]+\/[^"\n]+"[ \t]*\{/m.test(text) && /^[ \t]*hashes[ \t]*=/m.test(text),
  parse: parseTerraformLock,
};
