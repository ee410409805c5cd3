// A published index (`sync --publish`) read by `check --index-url` through a loopback server: conditional requests,
// a cache that keeps the last good copy, and refusal of files that do not match their manifest.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MANIFEST_NAME, ManifestSchema, publishIndex, sha256 } from '../../src/incidents/publish.js';
import { PublishedIndex, manifestUrl } from '../../src/incidents/published.js';
import type { IndexFile } from '../../src/incidents/schema.js';
import { IncidentIndex } from '../../src/incidents/store.js';
import { tempDir } from '../helpers/catalog.js';
import { type Route, type StatusServer, startStatusServer } from '../helpers/status-server.js';

const NOW = new Date('2026-03-02T12:00:00Z');

function indexFile(provider: string, ids: string[], syncedAt = '2026-03-02T11:55:00Z'): IndexFile {
  return {
    schemaVersion: 1,
    provider,
    syncedAt,
    sources: [`https://status.example.com/${provider}/api/v2/incidents.json`],
    http: {
      [`https://status.example.com/${provider}/api/v2/incidents.json`]: { etag: 'W/"private-to-the-publisher"' },
    },
    incidents: ids.map((id, i) => ({
      provider,
      id,
      title: `Elevated errors ${i + 1}`,
      url: `https://status.example.com/incidents/${id}`,
      status: 'resolved',
      impact: 'minor',
      components: ['API'],
      regions: [],
      startedAt: `2026-03-0${i + 1}T10:00:00Z`,
      resolvedAt: `2026-03-0${i + 1}T11:00:00Z`,
      updates: [],
      source: `https://status.example.com/${provider}/api/v2/incidents.json`,
    })),
  };
}

/** Publishes an index of the given files into a fresh directory, as the fleet's scheduled job would. */
async function publish(files: IndexFile[]): Promise<string> {
  const local = tempDir();
  const index = new IncidentIndex(local);
  for (const file of files) await index.write(file);
  const out = tempDir('downstack-published-');
  await publishIndex(index, out, NOW);
  return out;
}

/** Serves a published directory under /fleet/ the way a static host would, with ETags on every file. */
function serve(server: StatusServer, dir: string): void {
  const add = (path: string, file: string) => {
    const body = readFileSync(file);
    server.routes.set(path, { body, etag: `"${sha256(body).slice(0, 16)}"`, contentType: 'application/json' });
  };
  add(`/fleet/${MANIFEST_NAME}`, join(dir, MANIFEST_NAME));
  for (const name of readdirSync(join(dir, 'providers'))) add(`/fleet/providers/${name}`, join(dir, 'providers', name));
}

let server: StatusServer;
let local: string;

beforeEach(async () => {
  server = await startStatusServer();
  local = tempDir();
});
afterEach(async () => {
  await server.close();
});

const reader = (options: { offline?: boolean } = {}) =>
  new PublishedIndex({
    url: `${server.url}/fleet/`,
    localDir: local,
    snapshotDir: null,
    ...options,
    http: { userAgent: 'downstack-test', backoffBaseMs: 1, random: () => 0 },
  });

describe('sync --publish', () => {
  it('writes one file per provider and a manifest with their sha256, size, sync time and count', async () => {
    const dir = await publish([indexFile('github', ['a', 'b']), indexFile('stripe', ['c'], '2026-03-02T11:00:00Z')]);
    const manifest = ManifestSchema.parse(JSON.parse(readFileSync(join(dir, MANIFEST_NAME), 'utf8')));
    expect(manifest.publishedAt).toBe(NOW.toISOString());
    expect(Object.keys(manifest.providers)).toEqual(['github', 'stripe']);
    expect(manifest.providers.stripe).toMatchObject({
      file: 'providers/stripe.json',
      syncedAt: '2026-03-02T11:00:00Z',
      incidents: 1,
    });
    const text = readFileSync(join(dir, 'providers', 'github.json'));
    expect(manifest.providers.github?.bytes).toBe(text.length);
    // The publisher's own conditional-request validators are not part of what it publishes.
    expect(JSON.parse(text.toString())).not.toHaveProperty('http');
  });

  it('removes the file of a provider that left the index once the new manifest no longer names it', async () => {
    const dir = await publish([indexFile('github', ['a']), indexFile('stripe', ['c'])]);
    const local = tempDir();
    await new IncidentIndex(local).write(indexFile('github', ['a']));
    const report = await publishIndex(new IncidentIndex(local), dir, NOW);
    expect(report.removed).toEqual(['stripe']);
    expect(readdirSync(join(dir, 'providers'))).toEqual(['github.json']);
  });
});

describe('check --index-url', () => {
  it('accepts the directory or the manifest URL', () => {
    expect(manifestUrl('https://ops.example.com/downstack')).toBe('https://ops.example.com/downstack/manifest.json');
    expect(manifestUrl('https://ops.example.com/downstack/manifest.json')).toBe(
      'https://ops.example.com/downstack/manifest.json',
    );
  });

  it('downloads only the providers asked for, then asks again with conditional requests and downloads nothing', async () => {
    serve(server, await publish([indexFile('github', ['a', 'b']), indexFile('stripe', ['c'])]));
    const first = reader();
    expect((await first.read('github')).incidents.map((incident) => incident.id)).toEqual(['b', 'a']);
    expect(first.describe()).toMatchObject({ state: 'fresh', fetched: ['github'], cached: [], refused: [] });
    expect(server.counts.get('/fleet/providers/stripe.json')).toBeUndefined();

    const second = reader();
    expect((await second.read('github')).syncedAt).toBe('2026-03-02T11:55:00Z');
    expect(second.describe()).toMatchObject({ state: 'fresh', fetched: [], cached: ['github'] });
    const manifestRequests = server.requests.filter((request) => request.path === `/fleet/${MANIFEST_NAME}`);
    expect(manifestRequests.at(-1)?.headers['if-none-match']).toBeDefined();
    expect(server.counts.get('/fleet/providers/github.json')).toBe(1);
  });

  it('refuses a file whose sha256 does not match the manifest, and keeps the previous copy', async () => {
    const dir = await publish([indexFile('github', ['a'])]);
    serve(server, dir);
    await reader().read('github');
    // The publisher adds an incident, but the host serves a file that was tampered with after publishing.
    serve(server, await publish([indexFile('github', ['a', 'b'])]));
    const route = server.routes.get('/fleet/providers/github.json') as Route;
    route.body = (route.body as Buffer).toString().replace('Elevated errors 2', 'Elevated errorz 2');

    const next = reader();
    const entry = await next.read('github');
    expect(entry.incidents.map((incident) => incident.id)).toEqual(['a']);
    expect(next.describe().refused).toEqual([expect.stringMatching(/^github: sha256 .* does not match the manifest/)]);
  });

  it('refuses a truncated file and answers from the local index when nothing was cached yet', async () => {
    serve(server, await publish([indexFile('github', ['a', 'b'])]));
    (server.routes.get('/fleet/providers/github.json') as Route).truncate = true;
    await new IncidentIndex(local).write(indexFile('github', ['local-only']));
    const next = reader();
    const entry = await next.read('github');
    expect(entry.incidents.map((incident) => incident.id)).toEqual(['local-only']);
    expect(next.describe().refused).toEqual([expect.stringMatching(/^github: /)]);
  });

  it('answers from the cached copy when the host is unreachable, and says so', async () => {
    serve(server, await publish([indexFile('github', ['a'])]));
    await reader().read('github');
    await server.close();
    const offline = reader();
    expect((await offline.read('github')).incidents.map((incident) => incident.id)).toEqual(['a']);
    expect(offline.describe()).toMatchObject({ state: 'cached', publishedAt: NOW.toISOString() });
    expect(offline.describe().reason).toMatch(/ECONNREFUSED/);
    server = await startStatusServer();
  });

  it('answers from the local index when the host was never reached, and from the cache alone when offline', async () => {
    await new IncidentIndex(local).write(indexFile('github', ['local-only']));
    const never = reader({ offline: true });
    expect((await never.read('github')).incidents.map((incident) => incident.id)).toEqual(['local-only']);
    expect(never.describe()).toMatchObject({ state: 'local', reason: 'DOWNSTACK_OFFLINE=1' });
    expect(server.total()).toBe(0);
  });

  it('keeps the cached copy when the manifest is not a downstack index', async () => {
    serve(server, await publish([indexFile('github', ['a'])]));
    await reader().read('github');
    server.routes.set(`/fleet/${MANIFEST_NAME}`, {
      body: '<html>Sign in to continue</html>',
      contentType: 'text/html',
    });
    const next = reader();
    expect((await next.read('github')).incidents.map((incident) => incident.id)).toEqual(['a']);
    expect(next.describe()).toMatchObject({ state: 'cached' });
    expect(next.describe().reason).toMatch(/not JSON/);
  });

  it('lets what ships with the package answer for a provider the publisher does not sync', async () => {
    serve(server, await publish([indexFile('github', ['a'])]));
    const cacheProviders = join(reader().cacheDir, 'providers');
    mkdirSync(cacheProviders, { recursive: true });
    writeFileSync(join(cacheProviders, 'stripe.json'), JSON.stringify(indexFile('stripe', ['stale'])));
    const entry = await reader().read('stripe');
    expect(entry.incidents).toEqual([]);
  });
});
