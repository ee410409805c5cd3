// Deploy manifests name the platform that serves the app: vercel.json, netlify.toml, render.yaml, railway.toml and
// railway.json, firebase.json and Heroku's app.json each give a `platform` dependency on the catalog's components.
import { describe, expect, it } from 'vitest';
import { findComponent, loadCatalog } from '../../src/catalog/loader.js';
import { buildMatcher, exposuresFor } from '../../src/catalog/matcher.js';
import { PLATFORM, platformTarget } from '../../src/platforms.js';
import { parserForPath } from '../../src/parsers/index.js';
import { scanPaths } from '../../src/scan.js';

const FIXTURES = 'test/fixtures/platforms';
const catalog = loadCatalog();
const matcher = buildMatcher(catalog);

/** What one fixture puts in the stack: `provider: Component (region)` per exposed component. */
async function stackOf(path: string) {
  const { inputs, errors } = await scanPaths([`${FIXTURES}/${path}`]);
  expect(errors).toEqual([]);
  const dependencies = inputs.flatMap((input) => input.dependencies);
  const { exposures } = exposuresFor(dependencies, matcher, catalog);
  return exposures
    .filter((exposure) => !exposure.through)
    .flatMap((exposure) =>
      exposure.components.map((c) => `${exposure.provider}: ${c.name}${c.region ? ` (${c.region})` : ''}`),
    )
    .sort();
}

describe('deploy manifests', () => {
  it('name only providers and components the catalog has', () => {
    for (const target of Object.values(PLATFORM)) {
      const { provider, component } = platformTarget(target);
      const entry = catalog.providers.get(provider);
      expect(entry, target).toBeDefined();
      if (component) expect(entry && findComponent(entry, component)?.name, target).toBe(component);
    }
  });

  it('are claimed by their file names', async () => {
    for (const [path, kind] of [
      ['web/vercel.json', 'vercel.json'],
      ['netlify.toml', 'netlify.toml'],
      ['render.yaml', 'render.yaml'],
      ['apps/api/railway.toml', 'railway'],
      ['apps/api/railway.json', 'railway'],
      ['firebase.json', 'firebase.json'],
      ['app.json', 'app.json'],
    ])
      expect((await parserForPath(path))?.kind, path).toBe(kind);
    expect(await parserForPath('railway.yaml')).not.toMatchObject({ kind: 'railway' });
  });

  it('vercel.json: the edge and builds from any file, the functions in each region the file states', async () => {
    expect(await stackOf('vercel-headers')).toEqual(['vercel: Builds', 'vercel: Edge Network']);
    expect(await stackOf('vercel-regions')).toEqual([
      'vercel: Builds',
      'vercel: Edge Network',
      'vercel: Vercel Functions (fra1)',
      'vercel: Vercel Functions (iad1)',
      'vercel: Vercel Functions (sfo1)',
    ]);
    const { inputs } = await scanPaths([`${FIXTURES}/vercel-functions`]);
    expect(inputs[0]?.dependencies).toEqual([
      expect.objectContaining({ ecosystem: 'platform', name: 'vercel/Edge Network', line: 2, direct: true }),
      expect.objectContaining({ name: 'vercel/Builds', line: 2 }),
      expect.objectContaining({
        name: 'vercel/Vercel Functions',
        line: 3,
        via: ['functions', 'vercel/Vercel Functions'],
      }),
    ]);
    expect(inputs[0]?.jobs?.map((job) => job.name)).toEqual(['/api/cron/usage']);
  });

  it('netlify.toml: the CDN and builds at [build], functions and edge functions at their tables', async () => {
    const { inputs } = await scanPaths([`${FIXTURES}/netlify-site`]);
    expect(inputs[0]?.dependencies.map((d) => `${d.name}:${d.line}`)).toEqual([
      'netlify/Content Delivery Network:4',
      'netlify/Builds:4',
      'netlify/Functions:20',
      'netlify/Edge Functions:23',
    ]);
  });

  it('render.yaml: each service by its type, in the region it states, and its databases', async () => {
    expect(await stackOf('render-blueprint')).toEqual([
      'render: Builds and Deploys',
      'render: Cron Jobs (frankfurt)',
      'render: Render Key Value (frankfurt)',
      'render: Render Postgres (frankfurt)',
      'render: Static Sites',
      'render: Web Services (frankfurt)',
    ]);
    const { inputs } = await scanPaths([`${FIXTURES}/render-blueprint`]);
    expect(
      inputs[0]?.dependencies.filter((d) => d.name === 'render/Web Services').map((d) => [d.via[0], d.line]),
    ).toEqual([
      ['ledger-app', 2],
      ['ledger-jobs', 10],
    ]);
    expect(inputs[0]?.jobs?.map((job) => job.name)).toEqual(['nightly-export']);
  });

  it('railway.toml and railway.json: Railway deployments at the build section', async () => {
    const toml = await scanPaths([`${FIXTURES}/railway-toml`]);
    expect(toml.inputs[0]?.dependencies).toEqual([
      expect.objectContaining({ ecosystem: 'platform', name: 'railway/Deployments', line: 1 }),
    ]);
    const json = await scanPaths([`${FIXTURES}/railway-json`]);
    expect(json.inputs[0]?.dependencies).toEqual([expect.objectContaining({ name: 'railway/Deployments', line: 3 })]);
  });

  it('firebase.json: each product the file deploys, not the emulators', async () => {
    expect(await stackOf('firebase-hosting')).toEqual(['firebase: Cloud Firestore', 'firebase: Firebase Hosting']);
    const { inputs } = await scanPaths([`${FIXTURES}/firebase-hosting`]);
    expect(inputs[0]?.dependencies.map((d) => `${d.name}:${d.line}`)).toEqual([
      'firebase/Firebase Hosting:6',
      'firebase/Cloud Firestore:2',
    ]);
  });

  it("app.json: Heroku's apps and its own data add-ons only when the file has Heroku's keys", async () => {
    expect(await stackOf('heroku-button')).toEqual(['heroku: Apps', 'heroku: Data']);
    const { inputs } = await scanPaths([`${FIXTURES}/heroku-button`]);
    expect(inputs[0]?.dependencies.map((d) => `${d.name}:${d.line}:${d.via[0]}`)).toEqual([
      'heroku/Apps:5:formation',
      'heroku/Data:9:heroku-postgresql:essential-0',
      'heroku/Data:10:heroku-redis:mini',
    ]);
    for (const other of ['expo-app', 'app-json-other']) {
      const scan = await scanPaths([`${FIXTURES}/${other}`]);
      expect(scan.errors, other).toEqual([]);
      expect(scan.inputs, other).toEqual([]);
    }
  });
});
