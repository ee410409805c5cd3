// Sync speed: 300 Statuspage providers served from loopback (one port each, so each is its own host as on the
// real web), with a fixed simulated network latency per response. Reports the full sync, the re-sync when
// nothing changed (all 304s), and both as ratios of one single request measured in the same run.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCatalog } from '../dist/catalog/loader.js';
import { runSync } from '../dist/sync/sync.js';

const PROVIDERS = 300;
const LATENCY_MS = 20;
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const fixture = (path) => readFileSync(join(ROOT, 'test', 'fixtures', 'sync', path));

const BODIES = {
  '/api/v2/incidents.json': fixture('statuspage/incidents-github.json'),
  '/api/v2/scheduled-maintenances.json': fixture('statuspage/scheduled-maintenances.json'),
  '/api/v2/components.json': fixture('statuspage/components-grouped.json'),
  '/history.atom': fixture('statuspage/history-redis.atom'),
};
const ETAGS = Object.fromEntries(
  Object.entries(BODIES).map(([path, body]) => [
    path,
    `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"`,
  ]),
);

function startServer() {
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    const body = BODIES[path];
    setTimeout(() => {
      if (!body) return res.writeHead(404).end();
      if (req.headers['if-none-match'] === ETAGS[path]) return res.writeHead(304, { etag: ETAGS[path] }).end();
      res
        .writeHead(200, {
          'content-type': path.endsWith('.atom') ? 'application/atom+xml' : 'application/json',
          etag: ETAGS[path],
          'content-length': body.length,
        })
        .end(body);
    }, LATENCY_MS);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function run() {
  const servers = await Promise.all(Array.from({ length: PROVIDERS }, startServer));
  const catalogDir = mkdtempSync(join(tmpdir(), 'downstack-bench-catalog-'));
  const indexDir = mkdtempSync(join(tmpdir(), 'downstack-bench-index-'));
  try {
    const ids = servers.map((server, i) => {
      const id = `p${String(i).padStart(3, '0')}`;
      const url = `http://127.0.0.1:${server.address().port}`;
      writeFileSync(
        join(catalogDir, `${id}.yaml`),
        `name: ${id}\ncategory: other\nstatus:\n  url: ${url}\n  platform: statuspage\nmatch:\n  npm: [${id}-sdk]\n`,
      );
      return id;
    });
    const catalog = loadCatalog([catalogDir]);

    // Baseline: one request for one incidents.json, the unit everything else is counted in.
    const url = `http://127.0.0.1:${servers[0].address().port}/api/v2/incidents.json`;
    const singles = [];
    for (let i = 0; i < 7; i++) {
      const start = performance.now();
      await (await fetch(url)).arrayBuffer();
      singles.push(performance.now() - start);
    }
    const single = median(singles);

    let start = performance.now();
    const first = await runSync({ indexDir, catalog, providers: ids });
    const full = performance.now() - start;
    start = performance.now();
    const again = await runSync({ indexDir, catalog, providers: ids });
    const resync = performance.now() - start;

    const failed = [...first.providers, ...again.providers].filter((entry) => entry.outcome === 'failed').length;
    const unchanged = again.providers.filter((entry) => entry.outcome === 'unchanged').length;
    const line = (name, ms, note) =>
      console.log(
        `${name.padEnd(44)} ${ms.toFixed(1).padStart(9)} ms   ${(ms / single).toFixed(2).padStart(7)}× one request   ${note}`,
      );
    line(`sync: one request (${LATENCY_MS} ms simulated latency)`, single, 'baseline');
    line(
      `sync: ${PROVIDERS} providers, first run`,
      full,
      `${first.http.requests} requests (serial would be ~${first.http.requests}×; 8 in flight bounds it at ~${Math.ceil(first.http.requests / 8)}×), ${(first.http.bytes / 1024).toFixed(0)} KB`,
    );
    line(
      `sync: ${PROVIDERS} providers, nothing changed`,
      resync,
      `${again.http.requests} requests, ${again.http.notModified} answered 304, ${unchanged}/${PROVIDERS} unchanged, ${(again.http.bytes / 1024).toFixed(0)} KB`,
    );
    if (failed > 0) console.log(`sync: ${failed} provider runs failed (the figures above are not comparable)`);
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    rmSync(catalogDir, { recursive: true, force: true });
    rmSync(indexDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await run();
