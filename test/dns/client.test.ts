// DNS lookups against a loopback server: every record kind, every failure, TCP after truncation, limits and cache.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDnsClient } from '../../src/dns/client.js';
import { type DnsServer, startDnsServer } from '../helpers/dns-server.js';

let server: DnsServer;
const manyTxt = Array.from({ length: 300 }, (_, i) => `token-${i}=${'x'.repeat(40)}`);

beforeAll(async () => {
  server = await startDnsServer({
    zone: {
      'www.acme.com': { CNAME: 'cname.vercel-dns.com' },
      'cname.vercel-dns.com': { A: ['76.76.21.21'] },
      'acme.com': {
        A: ['76.76.21.21'],
        AAAA: ['2606:4700::6810:1'],
        NS: ['ns-1279.awsdns-31.org', 'ns-310.awsdns-38.com'],
        MX: ['10 alt1.aspmx.l.google.com', '1 aspmx.l.google.com'],
        TXT: ['v=spf1 include:_spf.google.com include:sendgrid.net ~all', ['google-site-verification=', 'abc123']],
      },
      'many.acme.com': { TXT: manyTxt },
      'truncated.acme.com': { TXT: ['stripe-verification=deadbeef'] },
      'broken.acme.com': { A: ['192.0.2.1'] },
      'refused.acme.com': { A: ['192.0.2.1'] },
    },
    faults: {
      'broken.acme.com': 'servfail',
      'refused.acme.com': 'refused',
      'silent.acme.com': 'timeout',
      'truncated.acme.com': { TXT: 'truncate' },
    },
  });
});
afterAll(() => server.close());

describe('createDnsClient', () => {
  it('reads every record kind, MX by priority and TXT chunks joined', async () => {
    const client = createDnsClient({ server: server.address });
    try {
      expect(await client.lookup('CNAME', 'www.acme.com')).toEqual({ ok: true, values: ['cname.vercel-dns.com'] });
      expect(await client.lookup('A', 'acme.com')).toEqual({ ok: true, values: ['76.76.21.21'] });
      expect(await client.lookup('AAAA', 'acme.com')).toEqual({ ok: true, values: ['2606:4700::6810:1'] });
      expect(await client.lookup('NS', 'acme.com')).toEqual({
        ok: true,
        values: ['ns-1279.awsdns-31.org', 'ns-310.awsdns-38.com'],
      });
      expect(await client.lookup('MX', 'acme.com')).toEqual({
        ok: true,
        values: ['aspmx.l.google.com', 'alt1.aspmx.l.google.com'],
      });
      expect(await client.lookup('TXT', 'acme.com')).toEqual({
        ok: true,
        values: ['v=spf1 include:_spf.google.com include:sendgrid.net ~all', 'google-site-verification=abc123'],
      });
    } finally {
      client.close();
    }
  });

  it('a name without records of the kind asked is an empty answer, not a failure', async () => {
    const client = createDnsClient({ server: server.address });
    try {
      expect(await client.lookup('CNAME', 'acme.com')).toEqual({ ok: true, values: [] });
      expect(await client.lookup('MX', 'www.acme.com')).toEqual({ ok: true, values: [] });
    } finally {
      client.close();
    }
  });

  it('reports NXDOMAIN, SERVFAIL, REFUSED and a silent server as failures of their own', async () => {
    const client = createDnsClient({ server: server.address, queryTimeoutMs: 200 });
    try {
      expect(await client.lookup('A', 'missing.acme.com')).toMatchObject({ ok: false, failure: 'NXDOMAIN' });
      expect(await client.lookup('A', 'broken.acme.com')).toMatchObject({ ok: false, failure: 'SERVFAIL' });
      expect(await client.lookup('A', 'refused.acme.com')).toMatchObject({ ok: false, failure: 'REFUSED' });
      expect(await client.lookup('A', 'silent.acme.com')).toMatchObject({ ok: false, failure: 'TIMEOUT' });
    } finally {
      client.close();
    }
  });

  it('asks again over TCP when the UDP answer is truncated, and so reads hundreds of TXT records', async () => {
    const client = createDnsClient({ server: server.address });
    try {
      expect(await client.lookup('TXT', 'truncated.acme.com')).toEqual({
        ok: true,
        values: ['stripe-verification=deadbeef'],
      });
      const many = await client.lookup('TXT', 'many.acme.com');
      expect(many.ok && many.values.length).toBe(300);
      const transports = (name: string) =>
        server.log.filter((entry) => entry.name === name).map((entry) => entry.transport);
      expect(transports('truncated.acme.com')).toEqual(['udp', 'tcp']);
      expect(transports('many.acme.com')).toEqual(['udp', 'tcp']);
    } finally {
      client.close();
    }
  });

  it('asks each name and kind once per run', async () => {
    const client = createDnsClient({ server: server.address });
    try {
      const before = server.log.filter((entry) => entry.name === 'cname.vercel-dns.com').length;
      await Promise.all([client.lookup('A', 'cname.vercel-dns.com'), client.lookup('A', 'CNAME.vercel-dns.com')]);
      await client.lookup('A', 'cname.vercel-dns.com');
      expect(server.log.filter((entry) => entry.name === 'cname.vercel-dns.com').length - before).toBe(1);
      expect(client.queries).toBe(1);
    } finally {
      client.close();
    }
  });

  it('keeps at most the configured number of queries in flight', async () => {
    const names = Array.from({ length: 40 }, (_, i) => `q${i}.silent.acme.com`);
    const silent = await startDnsServer({
      zone: {},
      faults: Object.fromEntries(names.map((name) => [name, 'timeout'])),
    });
    const limited = createDnsClient({ server: silent.address, queryTimeoutMs: 5_000, concurrency: 16 });
    try {
      const pending = Promise.all(names.map((name) => limited.lookup('A', name)));
      // Wait until the server has seen the first batch and nothing more arrives for a while.
      let seen = -1;
      while (seen !== silent.log.length || seen === 0) {
        seen = silent.log.length;
        await new Promise((done) => setTimeout(done, 150));
      }
      expect(silent.log.length).toBe(16);
      limited.close();
      const results = await pending;
      expect(results.every((result) => !result.ok && result.failure === 'DEADLINE')).toBe(true);
    } finally {
      limited.close();
      await silent.close();
    }
  });

  it('cancels what is still pending when the total deadline passes, long before the per-query timeout', async () => {
    const client = createDnsClient({ server: server.address, queryTimeoutMs: 10_000, deadlineMs: 300 });
    try {
      const [slow, late] = await Promise.all([
        client.lookup('A', 'silent.acme.com'),
        client.lookup('TXT', 'silent.acme.com'),
      ]);
      expect(slow).toMatchObject({ ok: false, failure: 'DEADLINE' });
      expect(late).toMatchObject({ ok: false, failure: 'DEADLINE' });
      // After the deadline nothing more is sent.
      const sent = client.queries;
      expect(await client.lookup('A', 'acme.com')).toMatchObject({ ok: false, failure: 'DEADLINE' });
      expect(client.queries).toBe(sent);
    } finally {
      client.close();
    }
  });
});
