import { describe, expect, it } from 'vitest';
import { decodeBody, sniffBody } from '../../src/sync/decode.js';
import { parseRetryAfter, PoliteClient } from '../../src/sync/http.js';
import { forOutput } from '../../src/sanitize.js';
import { progressBar } from '../../src/sync/progress.js';
import { startStatusServer } from '../helpers/status-server.js';

describe('Retry-After', () => {
  it('reads seconds and HTTP dates, and ignores junk', () => {
    const now = Date.parse('2026-09-30T12:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Wed, 30 Sep 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 30 Sep 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('PoliteClient', () => {
  it('never has more than the per-host limit in flight at the server', async () => {
    const server = await startStatusServer();
    for (let i = 0; i < 12; i++) server.routes.set(`/r${i}`, { body: '{}', delayMs: 30 });
    const client = new PoliteClient({ userAgent: 'test', concurrency: 8, perHost: 2 });
    const results = await Promise.all([...server.routes.keys()].map((path) => client.get(`${server.url}${path}`)));
    expect(results.every((result) => result.kind === 'ok')).toBe(true);
    expect(server.total()).toBe(12);
    expect(server.peakConcurrency()).toBe(2);
    await server.close();
  });

  it('never has more than the overall limit in flight across hosts', async () => {
    const shared = { inFlight: 0, peak: 0 };
    const servers = await Promise.all(
      Array.from({ length: 6 }, () =>
        startStatusServer({ '/a': { body: '{}', delayMs: 40 }, '/b': { body: '{}', delayMs: 40 } }, shared),
      ),
    );
    const client = new PoliteClient({ userAgent: 'test', concurrency: 3, perHost: 2 });
    const results = await Promise.all(
      servers.flatMap((server) => ['/a', '/b'].map((path) => client.get(`${server.url}${path}`))),
    );
    expect(results.every((result) => result.kind === 'ok')).toBe(true);
    expect(shared.peak).toBe(3);
    await Promise.all(servers.map((server) => server.close()));
  });

  it('spends no more retries than its budget across many failing requests', async () => {
    const server = await startStatusServer();
    for (let i = 0; i < 40; i++) server.routes.set(`/f${i}`, { status: 500, body: 'no' });
    // A new host per request would dodge the host breaker; one host shows the budget and breaker together.
    const client = new PoliteClient({
      userAgent: 'test',
      backoffBaseMs: 1,
      backoffMaxMs: 2,
      perHost: 8,
      concurrency: 8,
    });
    await Promise.all([...server.routes.keys()].map((path) => client.get(`${server.url}${path}`)));
    expect(client.stats.retries).toBeLessThanOrEqual(5 + Math.ceil(client.stats.requests * 0.2));
    expect(server.total()).toBeLessThan(40);
    await server.close();
  });

  it('refuses a non-http(s) URL without a request', async () => {
    const client = new PoliteClient({ userAgent: 'test' });
    expect(await client.get('file:///etc/passwd')).toMatchObject({
      kind: 'failed',
      reason: 'not an http(s) URL',
      attempts: 0,
    });
  });
});

describe('bodies', () => {
  it('decodes by BOM first, then charset (UTF-16 without BOM is big-endian)', () => {
    const text = '[{"a":"é"}]';
    const be = Buffer.from(text, 'utf16le').swap16();
    expect(decodeBody(Buffer.concat([Buffer.from([0xfe, 0xff]), be]), 'application/json')).toBe(text);
    expect(decodeBody(be, 'application/json;charset=utf-16')).toBe(text);
    expect(decodeBody(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), undefined)).toBe(text);
    expect(decodeBody(Buffer.from(`\uFEFF${text}`), undefined)).toBe(text);
  });

  it('sniffs JSON, feeds and HTML pages regardless of the declared type', () => {
    expect(sniffBody('  [ ]')).toBe('json');
    expect(sniffBody('<?xml version="1.0"?><rss version="2.0"></rss>')).toBe('xml');
    expect(sniffBody('<!DOCTYPE html><html></html>')).toBe('html');
    expect(sniffBody('')).toBe('empty');
    expect(sniffBody('Bad Gateway')).toBe('other');
  });
});

describe('progress bar', () => {
  it('fits the terminal and strips control characters from the label', () => {
    const line = forOutput(progressBar(3, 10, 'gh\u001b[2J', 60));
    expect(line.startsWith('\r[')).toBe(true);
    expect(line).toContain('3/10 gh');
    expect(line).not.toContain('\u001b');
    expect(line.length).toBe(60);
  });
});
