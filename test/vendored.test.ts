// The one-file copy of the yaml library the build bundles (scripts/build-vendor.js) is the library: it reads every
// YAML fixture, broken ones included, exactly as the installed package does, and the built CLI reads YAML with it.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { moduleLoads, packagesLoaded } from './helpers/module-loads.js';

const ROOT = resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const installed = require('yaml') as typeof import('yaml');
const bundled = require(join(ROOT, 'dist', 'vendor', 'yaml.cjs')) as typeof import('yaml');

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.ya?ml$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** What a reader sees of a text: every document's data, errors and warnings, and each node's range. */
function reading(library: typeof import('yaml'), text: string) {
  return library.parseAllDocuments(text, { prettyErrors: false, uniqueKeys: false }).map((document) => ({
    data: document.errors.length > 0 ? null : document.toJS({ maxAliasCount: 100 }),
    errors: document.errors.map((error) => [error.code, error.pos]),
    warnings: document.warnings.map((warning) => [warning.code, warning.pos]),
    range: document.contents?.range,
  }));
}

describe('the bundled yaml library', () => {
  it('reads every YAML fixture exactly as the installed package does', () => {
    const files = [...yamlFiles(join(ROOT, 'test', 'fixtures')), ...yamlFiles(join(ROOT, 'providers')).slice(0, 40)];
    expect(files.length).toBeGreaterThan(60);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      expect(reading(bundled, text), relative(ROOT, file)).toEqual(reading(installed, text));
    }
    // The nodes of one copy are recognised by the other (the identity checks use registered symbols).
    const document = bundled.parseDocument('on:\n  schedule:\n    - cron: "0 5 * * *"\n');
    expect(installed.isMap(document.contents)).toBe(true);
  });

  it("is what the built CLI loads for a workflow outside the fast reader's subset, never the installed package", () => {
    // An anchor and its alias: the fast reader leaves the file to the library.
    const dir = mkdtempSync(join(tmpdir(), 'downstack-vendored-'));
    mkdirSync(join(dir, '.github', 'workflows'), { recursive: true });
    writeFileSync(
      join(dir, '.github', 'workflows', 'nightly.yml'),
      'name: nightly\non:\n  schedule:\n    - cron: &nightly "0 5 * * *"\njobs:\n  run:\n    runs-on: ubuntu-latest\n    env:\n      WHEN: *nightly\n    steps:\n      - uses: actions/checkout@v4\n',
    );
    const run = moduleLoads([join(ROOT, 'bin', 'downstack.js'), 'jobs', dir, '--format', 'json'], {
      DOWNSTACK_OFFLINE: '1',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).jobs.map((job: { schedule: string }) => job.schedule)).toEqual(['0 5 * * *']);
    expect(run.modules.some((url) => url.endsWith('/dist/vendor/yaml.cjs'))).toBe(true);
    expect(run.modules.filter((url) => url.includes('/node_modules/yaml/'))).toEqual([]);
    expect(packagesLoaded(run.modules).has('yaml')).toBe(true);
  });
});
