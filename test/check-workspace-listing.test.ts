// A check lists a monorepo lockfile's packages per workspace only where the catalog can name them (src/check.ts). The
// report must be what listing every package per workspace gives: the same evidence, counts, gaps and package total.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notInCatalog } from '../src/catalog/candidates.js';
import { loadCatalog } from '../src/catalog/loader.js';
import { buildMatcher, exposuresFor } from '../src/catalog/matcher.js';
import { runCheck } from '../src/check.js';
import { dependencyCount } from '../src/model.js';
import { uniquePackages } from '../src/report/shared.js';
import { ownPackages, scanPaths } from '../src/scan.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/lockfiles/', import.meta.url));
const catalog = loadCatalog();

describe('a check of a workspace lockfile', () => {
  let indexDir: string;
  beforeAll(async () => {
    indexDir = await mkdtemp(join(tmpdir(), 'downstack-listing-index-'));
  });
  afterAll(() => rm(indexDir, { recursive: true, force: true }));

  it.each([
    'npm-v3-workspaces',
    'npm-v2-workspaces',
    'yarn-berry-workspaces',
    'yarn-berry-v6-workspaces',
    'yarn-v1-workspaces',
    'pnpm-v9-workspaces',
    'pnpm-v6-workspaces',
    'bun-workspaces',
  ])('%s: reports what the full per-workspace listing gives', async (dir) => {
    const paths = [join(FIXTURES, dir)];
    const now = new Date('2026-01-01T00:00:00Z');
    const report = await runCheck({
      paths,
      indexDir,
      since: new Date('2025-01-01T00:00:00Z'),
      until: now,
      now,
      catalog,
    });
    const full = await scanPaths(paths);
    const everything = full.inputs.flatMap((input) => input.dependencies);
    const expected = exposuresFor(everything, buildMatcher(catalog), catalog, ownPackages(full.inputs));

    // The listing did fold something, or this test would prove nothing.
    const listed = report.inputs.flatMap((input) => input.dependencies);
    expect(listed.length).toBeLessThan(everything.length);
    expect(report.exposures.length).toBeGreaterThan(2);

    expect(report.inputs.map(dependencyCount)).toEqual(full.inputs.map((input) => input.dependencies.length));
    expect(report.exposures).toEqual(expected.exposures);
    expect(report.ownProviders).toEqual(expected.own);
    expect(report.notInCatalog).toEqual(notInCatalog(expected.unmatched));
    expect(uniquePackages(report)).toBe(uniquePackages(full));
  });
});
