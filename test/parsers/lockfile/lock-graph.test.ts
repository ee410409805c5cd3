// dependenciesFromGraph with `perWorkspace`: what a check asks of a monorepo's lockfile. The packages it names are
// listed once per workspace, as without it; the others once, with the best any workspace gives them.
import { describe, expect, it } from 'vitest';
import {
  computeKinds,
  dependenciesFromGraph,
  type LockGraph,
  type LockNode,
  type LockRoot,
} from '../../../src/parsers/lockfile/lock-graph.js';

const node = (id: string, edges: LockNode['edges'] = [], extra: Partial<LockNode> = {}): LockNode => ({
  id,
  name: id.replace(/@[^@]*$/, '') || id,
  version: id.split('@').pop(),
  edges,
  ...extra,
});

/** A graph of these nodes, each under its id; the root `app` at `.` unless roots are given. */
const graphOf = (nodes: LockNode[], roots: LockRoot[] = [{ id: '.', name: 'app', dir: '.' }]): LockGraph => ({
  nodes: new Map(nodes.map((entry) => [entry.id, entry])),
  roots,
});

/**
 * The root `acme` (dev: `left-pad`) and two workspaces: `web` uses `stripe`, which brings `qs`; `api` declares `qs` and
 * `stripe` itself. `acme-cloud-sdk` (an SDK name the catalog lacks) is declared by `api` only and reached by `web`
 * through `stripe`.
 */
function monorepo(): LockGraph {
  const nodes = [
    node('.', [
      { to: 'packages/web', type: 'prod' },
      { to: 'packages/api', type: 'prod' },
      { to: 'left-pad@1.3.0', type: 'dev' },
    ]),
    node('packages/web', [{ to: 'stripe@17.0.0', type: 'prod' }]),
    node('packages/api', [
      { to: 'qs@6.13.0', type: 'prod' },
      { to: 'stripe@17.0.0', type: 'prod' },
      { to: 'acme-cloud-sdk@2.0.0', type: 'prod' },
    ]),
    node('stripe@17.0.0', [
      { to: 'qs@6.13.0', type: 'prod' },
      { to: 'acme-cloud-sdk@2.0.0', type: 'prod' },
    ]),
    node('qs@6.13.0'),
    node('acme-cloud-sdk@2.0.0'),
    node('left-pad@1.3.0', [], { kind: 'dev' }),
  ];
  for (const entry of nodes.slice(0, 3)) entry.kind = 'prod';
  for (const entry of nodes.slice(3, 6)) entry.kind = 'prod';
  return graphOf(nodes, [
    { id: '.', name: 'acme', dir: '.' },
    { id: 'packages/web', name: '@acme/web', dir: 'packages/web' },
    { id: 'packages/api', name: '@acme/api', dir: 'packages/api' },
  ]);
}

const summary = (dependencies: ReturnType<typeof dependenciesFromGraph>['dependencies']) =>
  dependencies.map(({ name, workspace, reach, direct, via, kind }) => ({ name, workspace, reach, direct, via, kind }));

describe('dependenciesFromGraph, listing a monorepo for a check', () => {
  const all = dependenciesFromGraph(monorepo(), 'package-lock.json');
  const listed = dependenciesFromGraph(monorepo(), 'package-lock.json', 'npm', {
    perWorkspace: (_ecosystem, name) => name === 'stripe',
  });

  it('keeps every workspace entry of the packages it is asked for, as they were', () => {
    expect(summary(listed.dependencies.filter((d) => d.name === 'stripe'))).toEqual(
      summary(all.dependencies.filter((d) => d.name === 'stripe')),
    );
    expect(listed.dependencies.filter((d) => d.name === 'stripe').map((d) => d.workspace)).toEqual([
      'acme',
      '@acme/web',
      '@acme/api',
    ]);
  });

  it('lists each other package once: the best reach, direct when any workspace declares it', () => {
    const once = summary(listed.dependencies.filter((d) => d.name !== 'stripe'));
    // The root reaches both through its own workspace @acme/api, whose declarations are direct; `web` reaches them
    // only through stripe (transitive). `direct`: @acme/api declares both, though the root's walk found them first.
    expect(once).toEqual([
      {
        name: 'acme-cloud-sdk',
        workspace: 'acme',
        reach: 'direct',
        direct: true,
        via: ['acme', '@acme/api', 'acme-cloud-sdk'],
        kind: 'prod',
      },
      { name: 'qs', workspace: 'acme', reach: 'direct', direct: true, via: ['acme', '@acme/api', 'qs'], kind: 'prod' },
      { name: 'left-pad', workspace: 'acme', reach: 'dev', direct: true, via: ['acme', 'left-pad'], kind: 'dev' },
    ]);
    expect(new Set(listed.dependencies.map((d) => d.name))).toEqual(new Set(all.dependencies.map((d) => d.name)));
  });

  it('counts one dependency per workspace and package, as the full listing has', () => {
    expect(all.dependencyCount).toBeUndefined();
    expect(listed.dependencyCount).toBe(all.dependencies.length);
    expect(listed.dependencies.length).toBeLessThan(all.dependencies.length);
  });

  it('takes a better reach from a later workspace', () => {
    // `web` reaches acme-cloud-sdk only through stripe (transitive); a first walk from `web` must give way to `api`.
    const graph = monorepo();
    graph.roots = [graph.roots[1], graph.roots[2], graph.roots[0]] as LockGraph['roots'];
    const [sdk] = dependenciesFromGraph(graph, 'package-lock.json', 'npm', {
      perWorkspace: () => false,
    }).dependencies.filter((d) => d.name === 'acme-cloud-sdk');
    expect(sdk).toMatchObject({
      workspace: '@acme/api',
      reach: 'direct',
      direct: true,
      via: ['@acme/api', 'acme-cloud-sdk'],
    });
  });

  it('changes nothing with a single chain start', () => {
    const graph = monorepo();
    const scoped = dependenciesFromGraph(graph, 'package-lock.json', 'npm', {
      scope: { within: ['packages/web'] },
      perWorkspace: () => false,
    });
    expect(scoped.dependencyCount).toBeUndefined();
    expect(summary(scoped.dependencies)).toEqual(
      summary(
        dependenciesFromGraph(monorepo(), 'package-lock.json', 'npm', { scope: { within: ['packages/web'] } })
          .dependencies,
      ),
    );
  });
});

describe('computeKinds, for formats that record no dev or optional flags', () => {
  it("gives npm's meaning: dev only through a root's devDependencies, optional or peer only through such edges", () => {
    const nodes = [
      node('.', [
        { to: 'vitest@4.0.0', type: 'dev' },
        { to: 'sharp@0.34.0', type: 'optional' },
        { to: 'react-dom@19.0.0', type: 'prod' },
        { to: 'ws@8.18.0', type: 'optional' },
      ]),
      // Reached first through an optional edge and a dev one; the prod path below, found later, makes it prod.
      node('sharp@0.34.0', [{ to: 'detect-libc@2.0.0', type: 'prod' }]),
      node('vitest@4.0.0', [
        { to: 'detect-libc@2.0.0', type: 'prod' },
        { to: 'chai@5.0.0', type: 'prod' },
      ]),
      node('react-dom@19.0.0', [
        { to: 'react@19.0.0', type: 'peer' },
        { to: 'scheduler@0.25.0', type: 'prod' },
      ]),
      node('react@19.0.0'),
      node('scheduler@0.25.0', [{ to: 'ws@8.18.0', type: 'prod' }]),
      node('ws@8.18.0', [{ to: 'detect-libc@2.0.0', type: 'prod' }]),
      node('detect-libc@2.0.0'),
      node('chai@5.0.0'),
      node('orphan@1.0.0'),
    ];
    const kinds = computeKinds(graphOf(nodes));
    expect(Object.fromEntries(kinds)).toEqual({
      '.': 'prod',
      'sharp@0.34.0': 'optional',
      'vitest@4.0.0': 'dev',
      'chai@5.0.0': 'dev',
      'react-dom@19.0.0': 'prod',
      'react@19.0.0': 'peer',
      'scheduler@0.25.0': 'prod',
      // Optional from the root, but also required through react-dom > scheduler.
      'ws@8.18.0': 'prod',
      'detect-libc@2.0.0': 'prod',
      // Reached from no root: as npm marks an extraneous package.
      'orphan@1.0.0': 'dev',
    });
  });
});

describe('dependenciesFromGraph, chains of equal length', () => {
  it('takes the chain through the lower node id, whatever order the lockfile lists the edges in', () => {
    // Two equally short chains to `ws` (through `b-client` and through `a-client`), and the root lists `b-client`
    // first; `ws` is also a dev dependency of the root, which must not make its prod chain dev.
    const graph = (order: 'listed' | 'reversed'): LockGraph => {
      const rootEdges: LockNode['edges'] = [
        { to: 'b-client@1.0.0', type: 'prod' },
        { to: 'a-client@1.0.0', type: 'prod' },
        { to: 'missing@1.0.0', type: 'prod' },
      ];
      const nodes = [
        node('.', order === 'listed' ? rootEdges : [...rootEdges].reverse()),
        node('b-client@1.0.0', [{ to: 'ws@8.18.0', type: 'prod' }]),
        node('a-client@1.0.0', [
          { to: 'ws@8.18.0', type: 'dev' },
          { to: 'ws@8.18.0', type: 'prod' },
        ]),
        node('ws@8.18.0'),
      ];
      return graphOf(nodes);
    };
    for (const order of ['listed', 'reversed'] as const) {
      const ws = dependenciesFromGraph(graph(order), 'yarn.lock').dependencies.find((d) => d.name === 'ws');
      expect(ws).toMatchObject({ via: ['app', 'a-client', 'ws'], reach: 'transitive', kind: 'prod' });
    }
  });
});
