import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { domainListParser, parseDomainList } from '../../src/parsers/domain-list.js';

const read = (name: string) => readFileSync(`test/fixtures/domains/${name}`, 'utf8');

describe('domain list parser', () => {
  it('takes hosts from bare names, URLs, host:port, wildcards and IDNs, and reports junk per line', () => {
    const { dependencies, errors } = parseDomainList(read('mixed.txt'), 'mixed.txt');
    expect(dependencies.map((d) => [d.name, d.line])).toEqual([
      ['api.stripe.com', 2],
      ['acme.herokuapp.com', 3],
      ['acme-assets.s3.eu-west-2.amazonaws.com', 4],
      ['twingate.com', 5],
      ['xn--mnchen-3ya.example.de', 6],
    ]);
    expect(errors.map((e) => e.line)).toEqual([7, 8, 9, 12]);
    expect(errors[0]?.message).toMatch(/IP address "10\.1\.2\.3"/);
    expect(errors[1]?.message).toMatch(/IP address "2001:db8::1"/);
    expect(errors[3]?.message).toMatch(/"localhost" is a local name, not a public host/);
    expect(dependencies.every((d) => d.ecosystem === 'domain' && d.direct)).toBe(true);
  });

  it('reads the host column of a CSV with a header and quoted cells', () => {
    const { dependencies, errors } = parseDomainList(read('hosts.csv'), 'hosts.csv');
    expect(dependencies.map((d) => [d.name, d.line])).toEqual([
      ['api.stripe.com', 2],
      ['img.s3.us-east-1.amazonaws.com', 3],
    ]);
    expect(errors).toEqual([
      {
        file: 'hosts.csv',
        line: 4,
        message: 'IP address "1.2.3.4" cannot be mapped to a provider; list its host name instead; skipped',
      },
    ]);
  });

  it('recognises a pasted list but not prose or JSON', () => {
    expect(domainListParser.sniff(read('mixed.txt'))).toBe(true);
    expect(domainListParser.sniff('We had an outage today. It was bad.\nSorry.')).toBe(false);
    expect(domainListParser.sniff('{"dependencies": {}}')).toBe(false);
    expect(domainListParser.matches('ops/domains.txt')).toBe(true);
    expect(domainListParser.matches('ops/costs.csv')).toBe(false);
    expect(domainListParser.matches('ops/hosts.prod.csv')).toBe(true);
  });
});
