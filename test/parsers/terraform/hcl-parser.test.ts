import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HclSyntaxError, parseHcl } from '../../../src/parsers/terraform/hcl-parser.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('hcl2-parser loading', () => {
  it('is loaded only when Terraform is scanned, and leaves the process globals as they were', () => {
    // A fresh process: whether it is loaded cannot be seen inside the test runner, which shares modules.
    const script = `
      const { scanPaths } = await import(${JSON.stringify(`${ROOT}dist/scan.js`)});
      const { hclLoaded } = await import(${JSON.stringify(`${ROOT}dist/parsers/terraform/hcl-parser.js`)});
      const before = { require: typeof globalThis.require, limit: Error.stackTraceLimit };
      await scanPaths([${JSON.stringify(`${ROOT}examples/saas-app`)}]);
      const afterNpm = hclLoaded();
      const result = await scanPaths([${JSON.stringify(`${ROOT}test/fixtures/terraform/configs/legacy-0-12`)}]);
      console.log(JSON.stringify({ before, afterNpm, afterTerraform: hclLoaded(), require: typeof globalThis.require, limit: Error.stackTraceLimit, found: result.inputs[0].dependencies.length }));
    `;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(output)).toEqual({
      before: { require: 'undefined', limit: 10 },
      afterNpm: false,
      afterTerraform: true,
      require: 'undefined',
      limit: 10,
      found: 4,
    });
  });

  it('gives the nested object shape and a typed error (without detail, as the parser has none)', () => {
    expect(parseHcl('provider "aws" {\n  alias  = "eu"\n  region = var.region\n}\n')).toEqual({
      // biome-ignore lint/suspicious/noTemplateCurlyInString: hcl2-parser writes references as Terraform interpolations
      provider: { aws: [{ alias: 'eu', region: '${var.region}' }] },
    });
    expect(() => parseHcl('provider "aws" {\n  region =\n}\n')).toThrow(HclSyntaxError);
  });
});
