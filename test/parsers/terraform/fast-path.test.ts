import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createFileAccess } from '../../../src/file-access.js';
import { createTerraformParser } from '../../../src/parsers/terraform-config.js';
import { REGION_ATTRIBUTES } from '../../../src/parsers/terraform/values.js';
import { splitHcl } from '../../../src/parsers/terraform/hcl-items.js';
import type { SourceFile } from '../../../src/parsers/types.js';

const CONFIGS = fileURLToPath(new URL('../../fixtures/terraform/configs/', import.meta.url));

/** Every fixture directory holding Terraform files, with its files; the test does its own reading. */
function fixtureDirectories(): Array<{ dir: string; files: SourceFile[] }> {
  const out: Array<{ dir: string; files: SourceFile[] }> = [];
  const visit = (dir: string) => {
    const entries = readdirSync(dir, { withFileTypes: true });
    const files = entries
      .filter((entry) => entry.isFile() && /\.(tf|tf\.json|tfvars|tfvars\.json)$/.test(entry.name))
      .map((entry) => ({ path: join(dir, entry.name), text: readFileSync(join(dir, entry.name), 'utf8') }));
    if (files.length > 0) out.push({ dir, files });
    for (const entry of entries) if (entry.isDirectory()) visit(join(dir, entry.name));
  };
  visit(CONFIGS);
  return out;
}

/** The core's own handle over the fixtures, for the modules the configurations call. */
const files = createFileAccess([CONFIGS]);

describe('the header-only fast path', () => {
  const directories = fixtureDirectories();

  it('has fixtures where it applies (resource blocks that name no provider or region)', () => {
    const skippable = directories
      .flatMap((entry) => entry.files)
      .flatMap((file) => splitHcl(file.text).items)
      .filter((item) => item.kind === 'block' && item.type === 'resource' && !REGION_ATTRIBUTES.test(item.body));
    expect(skippable.length).toBeGreaterThan(20);
  });

  it.each(directories.map((entry) => [entry.dir.slice(CONFIGS.length), entry] as const))(
    'extracts exactly what a full parse extracts: %s',
    async (_name, entry) => {
      const fast = await createTerraformParser({ fastPath: true }).parseTogether?.(entry.files, files);
      const full = await createTerraformParser({ fastPath: false }).parseTogether?.(entry.files, files);
      expect(fast?.map((input) => [input.file, input.dependencies])).toEqual(
        full?.map((input) => [input.file, input.dependencies]),
      );
    },
  );

  it('extracts exactly what a full parse extracts when every fixture directory is scanned together', async () => {
    const all = directories.flatMap((entry) => entry.files);
    const fast = (await createTerraformParser({ fastPath: true }).parseTogether?.(all, files)) ?? [];
    const full = (await createTerraformParser({ fastPath: false }).parseTogether?.(all, files)) ?? [];
    expect(fast.flatMap((input) => input.dependencies)).toEqual(full.flatMap((input) => input.dependencies));
    expect(fast.flatMap((input) => input.dependencies).length).toBeGreaterThan(50);
  });
});
