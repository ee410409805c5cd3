import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.js';
import { parserForPath, parserForText } from '../../src/parsers/index.js';
import { parseTerraformLock, terraformLockParser } from '../../src/parsers/terraform-lock.js';

const lock = readFileSync(
  new URL('../fixtures/terraform/configs/root-with-modules/.terraform.lock.hcl', import.meta.url),
  'utf8',
);

describe('.terraform.lock.hcl', () => {
  it('lists each locked provider with its exact version and line', () => {
    const result = parseTerraformLock(lock, '.terraform.lock.hcl');
    expect(result.errors).toEqual([]);
    expect(
      result.dependencies.map((dependency) => `${dependency.name}@${dependency.version}:${dependency.line}`),
    ).toEqual([
      'cloudflare/cloudflare@4.44.0:4',
      'datadog/datadog@3.46.0:13',
      'hashicorp/aws@5.72.1:21',
      'hashicorp/random@3.6.3:30',
      'twingate/twingate@3.0.11:37',
    ]);
  });

  it('is claimed by its name, and recognised when pasted (before the .tf parser, which it also resembles)', async () => {
    expect(await parserForPath('infra/.terraform.lock.hcl')).toBe(terraformLockParser);
    expect(await parserForText(lock)).toBe(terraformLockParser);
  });

  it('keeps the blocks it can read when one is broken', () => {
    const broken = lock.replace('version     = "3.46.0"', 'version     = "3.46.0\n');
    const result = parseTerraformLock(broken, 'x/.terraform.lock.hcl');
    expect(result.errors).toEqual([
      {
        file: 'x/.terraform.lock.hcl',
        line: 13,
        message:
          'provider "registry.terraform.io/datadog/datadog": string is not closed on its line (line 14); skipped',
      },
    ]);
    expect(result.dependencies.map((dependency) => dependency.name)).toEqual([
      'cloudflare/cloudflare',
      'hashicorp/aws',
      'hashicorp/random',
      'twingate/twingate',
    ]);
  });

  it('throws a located error when nothing can be read', () => {
    expect(() =>
      parseTerraformLock('provider "registry.terraform.io/hashicorp/aws" {\n  version = "5.0.0"\n', 'l.hcl'),
    ).toThrow(ParseError);
  });
});
