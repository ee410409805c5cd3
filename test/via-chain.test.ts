// `via` chains are shared links: building them is O(packages + edges) whatever the depth, and they read as arrays.
import { describe, expect, it } from 'vitest';
import { buildMatcher, exposuresFor } from '../src/catalog/matcher.js';
import { loadCatalog } from '../src/catalog/loader.js';
import { parseNpmLock } from '../src/parsers/npm-lock.js';
import { CHAIN_PENDING, chainLength, chainLink, reachedThrough, withChain } from '../src/via-chain.js';
import { growthRatio, LINEAR_AT_4X } from './helpers/growth.js';

/** A package-lock v3 with an n-package linear chain (app → p0 → p1 → … ), each package named by `name`. */
function chainLock(n: number, name = (i: number) => `p${i}`): string {
  const packages: Record<string, unknown> = {
    '': { name: 'chain-app', version: '1.0.0', dependencies: { [name(0)]: '1.0.0' } },
  };
  for (let i = 0; i < n; i++)
    packages[`node_modules/${name(i)}`] = {
      version: '1.0.0',
      ...(i + 1 < n ? { dependencies: { [name(i + 1)]: '1.0.0' } } : {}),
    };
  return JSON.stringify({ name: 'chain-app', version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2);
}

describe('via chains', () => {
  it('read as ordinary arrays: in JSON, in spreads and when set', () => {
    const root = chainLink('app');
    const dependency = withChain(
      { ecosystem: 'npm', name: 'stripe', file: 'package-lock.json', direct: false, via: CHAIN_PENDING, kind: 'prod' },
      chainLink('stripe', chainLink('billing', root)),
    );
    expect(chainLength(dependency)).toBe(3);
    expect(JSON.parse(JSON.stringify(dependency)).via).toEqual(['app', 'billing', 'stripe']);
    // The property keeps its place, so JSON output reads as before.
    expect(Object.keys(dependency)).toEqual(['ecosystem', 'name', 'file', 'direct', 'via', 'kind']);
    expect({ ...dependency }.via).toEqual(['app', 'billing', 'stripe']);
    dependency.via = ['x'];
    expect(dependency.via).toEqual(['x']);
  });

  it('answer "reached through one of these names?" for a whole chain at once', () => {
    const links = [chainLink('app')];
    for (let i = 0; i < 5; i++) links.push(chainLink(`p${i}`, links.at(-1)));
    const memo = new Map();
    const names = new Set(['p1']);
    const dependency = (at: number) =>
      withChain(
        { ecosystem: 'npm', name: `p${at}`, file: 'f', direct: false, via: CHAIN_PENDING },
        links[at + 1] as never,
      );
    expect([0, 1, 2, 3, 4].map((at) => reachedThrough(dependency(at), names, memo))).toEqual([
      false,
      false,
      true,
      true,
      true,
    ]);
  });

  it('a 35,000-deep chain is read with every chain right, and its last package explained end to end', () => {
    const { dependencies } = parseNpmLock(chainLock(35_000), 'package-lock.json');
    expect(dependencies).toHaveLength(35_000);
    const last = dependencies.at(-1);
    expect(last?.name).toBe('p34999');
    expect(last && chainLength(last)).toBe(35_001);
    expect(last?.via.slice(0, 3)).toEqual(['chain-app', 'p0', 'p1']);
    expect(last?.via.at(-1)).toBe('p34999');
  });

  it('costs linear time in the depth of the chain, even when every package maps to the same provider', async () => {
    const catalog = loadCatalog();
    const matcher = buildMatcher(catalog);
    const lock = (n: number) => chainLock(n, (i) => `@aws-sdk/client-s3-p${i}`);
    const texts = new Map([5_000, 20_000].map((n) => [n, lock(n)]));
    const ratio = await growthRatio(
      (n) => {
        const { dependencies } = parseNpmLock(texts.get(n) as string, 'package-lock.json');
        return exposuresFor(dependencies, matcher, catalog);
      },
      5_000,
      3,
    );
    expect(ratio).toBeLessThan(LINEAR_AT_4X);
  });
});
