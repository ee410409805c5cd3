import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HclSyntaxError, parseHcl } from '../../../src/parsers/terraform/hcl-parser.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('hcl2-parser loading', () => {
  it('is loaded only when an expression needs it, and leaves the process globals as they were', () => {
    // A fresh process: whether it is loaded cannot be seen inside the test runner, which shares modules.
    const script = `
      const { scanPaths } = await import(${JSON.stringify(`${ROOT}dist/scan.js`)});
      const { hclLoaded } = await import(${JSON.stringify(`${ROOT}dist/parsers/terraform/hcl-parser.js`)});
      const before = { require: typeof globalThis.require, limit: Error.stackTraceLimit };
      await scanPaths([${JSON.stringify(`${ROOT}examples/saas-app`)}]);
      const afterNpm = hclLoaded();
      // Every expression there that decides something is simple: the shallow reader reads the module alone.
      const simple = await scanPaths([${JSON.stringify(`${ROOT}test/fixtures/terraform/configs/legacy-0-12`)}]);
      const afterSimple = hclLoaded();
      // A provider block that does not parse (\`region =\`) goes to the full parser, which reports it.
      const broken = await scanPaths([${JSON.stringify(`${ROOT}test/fixtures/terraform/configs/broken-blocks`)}]);
      console.log(JSON.stringify({ before, afterNpm, afterSimple, afterBroken: hclLoaded(), require: typeof globalThis.require, limit: Error.stackTraceLimit, found: [simple, broken].map((result) => result.inputs.reduce((sum, input) => sum + input.dependencies.length, 0)) }));
    `;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(output)).toEqual({
      before: { require: 'undefined', limit: 10 },
      afterNpm: false,
      afterSimple: false,
      afterBroken: true,
      require: 'undefined',
      limit: 10,
      found: [4, 4],
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
