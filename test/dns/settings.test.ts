// What --resolver and DOWNSTACK_RESOLVER accept.
import { describe, expect, it } from 'vitest';
import { parseResolverAddress } from '../../src/dns/settings.js';

describe('parseResolverAddress', () => {
  it('takes an IPv4 or IPv6 address with an optional port', () => {
    expect(parseResolverAddress('127.0.0.1')).toEqual({ host: '127.0.0.1' });
    expect(parseResolverAddress('127.0.0.1:5353')).toEqual({ host: '127.0.0.1', port: 5353 });
    expect(parseResolverAddress('::1')).toEqual({ host: '::1' });
    expect(parseResolverAddress('[::1]:5353')).toEqual({ host: '::1', port: 5353 });
  });

  it('refuses host names, bad ports and anything else', () => {
    for (const text of ['dns.google', '1.2.3.4:0', '1.2.3.4:70000', '1.2.3.4:', '', 'udp://1.1.1.1'])
      expect(parseResolverAddress(text), text).toBeUndefined();
  });
});
