// A loopback status-page server for tests: routes serve fixture payloads, and a route can misbehave the way
// real status pages do under load (5xx with Retry-After, 429, hangs, trickles, truncation, huge bodies).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';

export interface Route {
  body?: string | Buffer;
  contentType?: string;
  status?: number;
  headers?: Record<string, string>;
  /** Answer 304 when the request carries this ETag in If-None-Match. */
  etag?: string;
  lastModified?: string;
  /** Fail the first `times` requests with this status (and optional Retry-After), then serve normally. */
  failFirst?: { times: number; status: number; retryAfter?: string };
  /** Never answer. */
  hang?: boolean;
  /** Send the body one chunk every `ms`. */
  trickleMs?: number;
  /** Declare the full length, send half, then cut the connection. */
  truncate?: boolean;
  /** Stream this many bytes of JSON-ish filler. */
  hugeBytes?: number;
  /** Compress when the client accepts it. */
  compress?: boolean;
  delayMs?: number;
}

export interface StatusServer {
  url: string;
  port: number;
  routes: Map<string, Route>;
  /** Requests per path (query ignored). */
  counts: Map<string, number>;
  /** Responses per path whose body was sent to the end. */
  finished: Map<string, number>;
  /** Every request: its path, its full URL (with the query) and when it arrived (ms since the epoch). */
  requests: Array<{ path: string; url: string; at: number; headers: IncomingMessage['headers'] }>;
  total(): number;
  /** Most requests the server was answering at the same moment. */
  peakConcurrency(): number;
  close(): Promise<void>;
}

/** `shared` counts requests in flight across several servers (several hosts, one client). */
export async function startStatusServer(
  routes: Record<string, Route> = {},
  shared?: { inFlight: number; peak: number },
): Promise<StatusServer> {
  const table = new Map(Object.entries(routes));
  const counts = new Map<string, number>();
  const finished = new Map<string, number>();
  const requests: StatusServer['requests'] = [];
  const sockets = new Set<import('node:net').Socket>();
  let inFlight = 0;
  let peak = 0;
  const server: Server = createServer((req, res) => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    if (shared) {
      shared.inFlight++;
      shared.peak = Math.max(shared.peak, shared.inFlight);
    }
    res.on('close', () => {
      inFlight--;
      if (shared) shared.inFlight--;
    });
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    res.on('finish', () => finished.set(path, (finished.get(path) ?? 0) + 1));
    const seen = (counts.get(path) ?? 0) + 1;
    counts.set(path, seen);
    requests.push({ path, url: req.url ?? '/', at: Date.now(), headers: req.headers });
    // A route registered with its query (`/history?page=2`) answers that URL alone; one without answers any query.
    const route = table.get(req.url ?? '/') ?? table.get(path);
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const respond = () => serve(route, seen, req, res);
    if (route.delayMs) setTimeout(respond, route.delayMs);
    else respond();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    routes: table,
    counts,
    finished,
    requests,
    total: () => [...counts.values()].reduce((a, b) => a + b, 0),
    peakConcurrency: () => peak,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function serve(route: Route, seen: number, req: IncomingMessage, res: ServerResponse): void {
  if (route.hang) return;
  if (route.failFirst && seen <= route.failFirst.times) {
    res
      .writeHead(route.failFirst.status, {
        'content-type': 'text/plain',
        ...(route.failFirst.retryAfter ? { 'retry-after': route.failFirst.retryAfter } : {}),
      })
      .end('busy');
    return;
  }
  if (route.etag && req.headers['if-none-match'] === route.etag) {
    res.writeHead(304, { etag: route.etag }).end();
    return;
  }
  if (route.lastModified && req.headers['if-modified-since'] === route.lastModified) {
    res.writeHead(304, { 'last-modified': route.lastModified }).end();
    return;
  }
  const headers: Record<string, string> = {
    'content-type': route.contentType ?? 'application/json; charset=utf-8',
    ...(route.etag ? { etag: route.etag } : {}),
    ...(route.lastModified ? { 'last-modified': route.lastModified } : {}),
    ...route.headers,
  };
  if (route.hugeBytes) {
    res.writeHead(route.status ?? 200, headers);
    streamFiller(res, route.hugeBytes);
    return;
  }
  let body = typeof route.body === 'string' ? Buffer.from(route.body) : (route.body ?? Buffer.alloc(0));
  const accepts = String(req.headers['accept-encoding'] ?? '');
  if (route.compress && accepts.includes('br')) {
    body = brotliCompressSync(body);
    headers['content-encoding'] = 'br';
  } else if (route.compress && accepts.includes('gzip')) {
    body = gzipSync(body);
    headers['content-encoding'] = 'gzip';
  }
  if (route.truncate) {
    res.writeHead(route.status ?? 200, { ...headers, 'content-length': String(body.length) });
    res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.socket?.destroy());
    return;
  }
  if (route.trickleMs) {
    res.writeHead(route.status ?? 200, headers);
    let offset = 0;
    const timer = setInterval(() => {
      if (res.destroyed || offset >= body.length) {
        clearInterval(timer);
        if (!res.destroyed) res.end();
        return;
      }
      res.write(body.subarray(offset, offset + 16));
      offset += 16;
    }, route.trickleMs);
    res.on('close', () => clearInterval(timer));
    return;
  }
  res.writeHead(route.status ?? 200, { ...headers, 'content-length': String(body.length) }).end(body);
}

function streamFiller(res: ServerResponse, total: number): void {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let sent = 0;
  const pump = () => {
    while (sent < total) {
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
    res.end();
  };
  res.on('close', () => {
    sent = total;
  });
  pump();
}
