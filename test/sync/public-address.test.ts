// A repository's own providers may only send downstack to public addresses.
import { describe, expect, it } from 'vitest';
import { notPublicReason } from '../../src/sync/public-address.js';

const resolvesTo = (addresses: string[]) => async () => addresses;

describe('notPublicReason', () => {
  it('accepts a public https or http page whose name resolves to public addresses', async () => {
    expect(await notPublicReason('https://status.acme.example/', resolvesTo(['93.184.215.14']))).toBeUndefined();
    expect(await notPublicReason('http://203.0.113.9/status', resolvesTo([]))).toBeUndefined();
    expect(await notPublicReason('https://[2606:4700::6810:84e5]/', resolvesTo([]))).toBeUndefined();
  });

  it('refuses loopback, private, link-local and metadata addresses, written or resolved', async () => {
    const cases: Array<[string, string[]]> = [
      ['http://127.0.0.1:8080/', []],
      ['http://10.1.2.3/', []],
      ['http://172.20.0.5/', []],
      ['http://192.168.1.1/', []],
      ['http://169.254.169.254/latest/meta-data/', []],
      ['http://100.100.100.200/', []],
      ['http://[::1]/', []],
      ['http://[fd00::1]/', []],
      ['http://[::ffff:127.0.0.1]/', []],
      ['https://status.acme.example/', ['93.184.215.14', '10.0.0.7']],
      ['https://rebind.example.net/', ['::ffff:169.254.169.254']],
    ];
    for (const [url, addresses] of cases)
      expect(await notPublicReason(url, resolvesTo(addresses)), url).toMatch(/private address/);
  });

  it('refuses names that only mean something on a local network, and schemes other than http(s)', async () => {
    for (const url of ['http://localhost:3000/', 'http://status.localhost/', 'http://nas.local/', 'http://intranet/'])
      expect(await notPublicReason(url, resolvesTo(['93.184.215.14'])), url).toMatch(/not a public host name/);
    expect(await notPublicReason('file:///etc/passwd', resolvesTo([]))).toBe('file: is not http(s)');
  });
});
