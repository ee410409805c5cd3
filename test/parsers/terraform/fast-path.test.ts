import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createFileAccess } from '../../../src/file-access.js';
import { createTerraformParser } from '../../../src/parsers/terraform-config.js';
import { readShallow } from '../../../src/parsers/terraform/body-view.js';
import { OPAQUE, resolvableValue } from '../../../src/parsers/terraform/hcl-values.js';
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

describe('the shallow reader (the fast path)', () => {
  const directories = fixtureDirectories();

  it('has fixtures where it reads values exactly, marks them opaque, and leaves them to the full parser', () => {
    const counts = { exact: 0, opaque: 0, declined: 0 };
    for (const item of directories.flatMap((entry) => entry.files).flatMap((file) => splitHcl(file.text).items)) {
      const shallow = item.kind === 'block' ? readShallow(item.body) : undefined;
      for (const expression of shallow?.attributes.values() ?? []) {
        const read = resolvableValue(expression);
        if (!read) counts.declined++;
        else if (read.value === OPAQUE) counts.opaque++;
        else counts.exact++;
      }
    }
    expect(counts.exact).toBeGreaterThan(100);
    expect(counts.opaque).toBeGreaterThan(10);
    expect(counts.declined).toBeGreaterThan(0);
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
