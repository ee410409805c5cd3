// Module graphs are read once per module and configuration: a "diamond" whose every module calls the next twice has
// 2^n paths but n modules, and nesting past any real configuration is named instead of overflowing the stack.
import { describe, expect, it } from 'vitest';
import type { InputResult } from '../../../src/model.js';
import { terraformParser } from '../../../src/parsers/terraform-config.js';
import type { SourceFile } from '../../../src/parsers/types.js';
import { growthRatio, LINEAR_AT_4X } from '../../helpers/growth.js';

/** Modules m1…mN under modules/, the root and every module calling the next one twice with `arguments`. */
function diamond(depth: number, argumentsOf: (k: number, side: string) => string = () => '') {
  const files = new Map<string, SourceFile[]>();
  const calls = (target: string, k: number) =>
    ['left', 'right']
      .map((side) => `module "${side}" {\n  source = "${target}"\n${argumentsOf(k, side)}}\n`)
      .join('\n');
  const root = `provider "aws" {\n  region = "eu-west-2"\n}\n\n${calls('./modules/m1', 0)}`;
  files.set('stack', [{ path: 'stack/main.tf', text: root }]);
  for (let k = 1; k <= depth; k++) {
    const next =
      k < depth
        ? `\nvariable "a" {}\nvariable "b" {}\n\n${calls(`../m${k + 1}`, k)}`
        : '\nvariable "a" {}\nvariable "b" {}\n';
    const text = `resource "aws_s3_bucket" "b${k}" {\n  bucket = "bucket-${k}"\n}\n${next}`;
    files.set(`stack/modules/m${k}`, [{ path: `stack/modules/m${k}/main.tf`, text }]);
  }
  return files;
}

/** The scan's view of an in-memory tree: the root module's files, and every other directory on request. */
async function read(files: Map<string, SourceFile[]>): Promise<InputResult[]> {
  const byPath = new Map([...files.values()].flat().map((file) => [file.path, file.text]));
  const missing = { failed: 'missing' as const, reason: 'no such file or directory' };
  return (await terraformParser.parseTogether?.(files.get('stack') as SourceFile[], {
    async list(dir) {
      const found = files.get(dir);
      return found ? { files: found.map((file) => file.path.slice(dir.length + 1)), dirs: [] } : missing;
    },
    async read(path) {
      const text = byPath.get(path);
      return text === undefined ? missing : { text };
    },
  })) as InputResult[];
}

describe('module graphs', () => {
  it('a 21-module diamond lists each module once, with the region its caller passes down', async () => {
    const inputs = await read(diamond(21));
    const resources = inputs.flatMap((input) => input.dependencies).filter((d) => d.ecosystem === 'terraform-resource');
    expect(resources.map((d) => d.name)).toEqual(Array(21).fill('aws_s3_bucket'));
    expect(new Set(resources.map((d) => d.region))).toEqual(new Set(['eu-west-2']));
    expect(resources.find((d) => d.file === 'stack/modules/m3/main.tf')?.via).toEqual([
      'stack',
      'module.left',
      'module.left',
      'module.left',
      'aws_s3_bucket.b3',
    ]);
    expect(inputs.flatMap((input) => input.errors)).toEqual([]);
  });

  it('costs time linear in the number of modules, not in the number of paths', async () => {
    const small = diamond(20);
    const large = diamond(80);
    // Without the full parser a module is read in well under a millisecond: each measure reads the tree 20 times,
    // so a timer tick or one collection does not decide the ratio.
    const ratio = await growthRatio(async (n) => {
      for (let i = 0; i < 20; i++) await read(n === 20 ? small : large);
    }, 20);
    expect(ratio).toBeLessThan(LINEAR_AT_4X);
  });

  it('a module reached in many real configurations is read in each, the same configuration once', async () => {
    // Every module calls the next twice, left passing its caller's `a` on and setting `b`, right the other way
    // round: module k is reached in about 2k configurations, each of which can place resources differently.
    const inputs = await read(
      diamond(12, (k, side) =>
        side === 'left'
          ? `  a = ${k ? 'var.a' : '"a0"'}\n  b = "l${k}"\n`
          : `  a = "r${k}"\n  b = ${k ? 'var.b' : '"b0"'}\n`,
      ),
    );
    expect(inputs.flatMap((input) => input.errors)).toEqual([]);
    const resources = inputs.flatMap((input) => input.dependencies).filter((d) => d.ecosystem === 'terraform-resource');
    // 2 + 4 + … : far fewer than the 2 + 4 + 8 + … paths, far more than one per module.
    expect(resources.length).toBeGreaterThan(12 * 3);
    expect(resources.length).toBeLessThan(12 * 13 * 2);
  });

  it('a graph whose configurations multiply past any real one is read up to a budget and named once', async () => {
    const inputs = await read(
      diamond(50, (k, side) =>
        side === 'left'
          ? `  a = ${k ? 'var.a' : '"a0"'}\n  b = "l${k}"\n`
          : `  a = "r${k}"\n  b = ${k ? 'var.b' : '"b0"'}\n`,
      ),
    );
    const problems = inputs.flatMap((input) => input.errors);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.message).toMatch(
      /^module "(left|right)": the modules here are reached in more than 2000 different configurations; stack\/modules\/m\d+ and the rest past that are not read$/,
    );
    const resources = inputs.flatMap((input) => input.dependencies).filter((d) => d.ecosystem === 'terraform-resource');
    expect(resources.length).toBeLessThanOrEqual(2_000);
  });

  it('nesting deeper than any real configuration is named at the call, and the rest is read', async () => {
    const files = new Map<string, SourceFile[]>();
    files.set('stack', [{ path: 'stack/main.tf', text: 'module "m" {\n  source = "./m0"\n}\n' }]);
    let dir = 'stack';
    for (let k = 0; k < 200; k++) {
      dir = `${dir}/m${k}`;
      files.set(dir, [
        {
          path: `${dir}/main.tf`,
          text: `resource "aws_s3_bucket" "b" {}\n\nmodule "m" {\n  source = "./m${k + 1}"\n}\n`,
        },
      ]);
    }
    const inputs = await read(files);
    expect(inputs.flatMap((input) => input.errors).map((problem) => problem.message)).toContain(
      'module "m": modules nested more than 64 deep; ./m63 is not followed',
    );
    expect(inputs.flatMap((input) => input.dependencies).length).toBe(63);
  });
});
