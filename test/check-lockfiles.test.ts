// Dev-only exposure through lockfiles: shown as such by `check`, and left out with `--omit dev`.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalog, type Catalog } from '../src/catalog/loader.js';
import { runCheck } from '../src/check.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/lockfiles/', import.meta.url));

describe('dev-only exposure from a lockfile', () => {
  let catalogDir: string;
  let indexDir: string;
  let catalog: Catalog;
  beforeAll(async () => {
    catalogDir = await mkdtemp(join(tmpdir(), 'downstack-dev-catalog-'));
    indexDir = await mkdtemp(join(tmpdir(), 'downstack-dev-index-'));
    // A provider reached only through the root's devDependencies (@sentry/vite-plugin → … → @sentry/cli).
    await writeFile(
      join(catalogDir, 'sentry-cli.yaml'),
      'name: Sentry CLI releases\ncategory: devtools\nstatus:\n  url: https://status.sentry.io\n  platform: statuspage\nmatch:\n  npm: ["@sentry/cli"]\n',
    );
    await writeFile(
      join(catalogDir, 'stripe.yaml'),
      'name: Stripe\ncategory: payments\nstatus:\n  url: https://status.stripe.com\n  platform: custom\nmatch:\n  npm: [stripe]\n',
    );
    catalog = loadCatalog([catalogDir]);
  });
  afterAll(async () => {
    await rm(catalogDir, { recursive: true, force: true });
    await rm(indexDir, { recursive: true, force: true });
  });

  const check = (dir: string, omit?: Array<'dev'>) => {
    const now = new Date('2026-01-01T00:00:00Z');
    return runCheck({
      paths: [`${FIXTURES}${dir}`],
      indexDir,
      since: new Date('2025-01-01T00:00:00Z'),
      until: now,
      now,
      catalog,
      omit,
    });
  };

  it.each([
    'npm-v3-workspaces',
    'yarn-berry-workspaces',
    'yarn-berry-v6-workspaces',
    'pnpm-v9-workspaces',
    'bun-workspaces',
    'yarn-v1-workspaces',
    'npm-v1-local-package',
  ])('%s: flagged devOnly, gone with --omit dev', async (dir) => {
    const all = await check(dir);
    expect(all.exposures.find((exposure) => exposure.provider === 'sentry-cli')).toMatchObject({ devOnly: true });
    expect(all.exposures.find((exposure) => exposure.provider === 'stripe')).toMatchObject({ devOnly: false });
    const omitted = await check(dir, ['dev']);
    expect(omitted.exposures.map((exposure) => exposure.provider)).toEqual(['stripe']);
  });
});
