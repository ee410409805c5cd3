import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { domainToASCII, pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import psl from 'psl';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPublicSuffixes, type PublicSuffixes, writePublicSuffixTable } from '../src/public-suffixes.js';

const pslEntry = createRequire(import.meta.url).resolve('psl');
const rules = ((await import(new URL('../data/rules.js', pathToFileURL(pslEntry)).href)) as { default: string[] })
  .default;

/** What psl.parse says of a host, in the fields the table answers. */
function pslAnswer(host: string) {
  const parsed = psl.parse(host);
  return 'error' in parsed
    ? { error: parsed.error.message }
    : { listed: parsed.listed, tld: parsed.tld, domain: parsed.domain };
}

/** Hosts on and under every rule (IDN ones punycoded, as normalizeHost hands them on), and around wildcards and exceptions. */
function ruleHosts(): string[] {
  const hosts = new Set<string>();
  for (const rule of rules) {
    const suffix = domainToASCII(rule.replace(/^(\*\.|!)/, ''));
    hosts.add(suffix).add(`x.${suffix}`).add(`a.b.${suffix}`);
    if (rule.startsWith('*.') || rule.startsWith('!')) {
      const parent = suffix.slice(suffix.indexOf('.') + 1);
      hosts.add(`a.b.c.${suffix}`);
      if (parent !== suffix) hosts.add(parent).add(`x.${parent}`).add(`a.x.${parent}`);
    }
  }
  return [...hosts];
}

const label63 = 'a'.repeat(63);
const labels252 = `${'a'.repeat(62)}.`.repeat(4);
/** Hosts psl rejects (and the lengths just inside its limits), hosts no rule lists and psl's non-Internet `local`. */
const edgeHosts = [
  `${label63}.com`,
  `${label63}a.com`,
  `x.${label63}b.co.uk`,
  `-${label63}.com`,
  '-a.com',
  'a-.com',
  'x.-.com',
  '-a-.com',
  `a-.${label63}b.com`,
  `x.a-.-b.co.uk`,
  `${labels252}com`,
  `b${labels252}com`,
  `${label63}c.${labels252}com`,
  'example.zzzz',
  'a.b.not-a-suffix',
  'zzzz.qqq',
  'x.local',
  'a.b.local',
  'local.com',
];

describe('Public Suffix List table', () => {
  let table: PublicSuffixes;
  let tablePath: string;
  beforeAll(async () => {
    tablePath = join(mkdtempSync(join(tmpdir(), 'downstack-psl-')), 'public-suffixes.json');
    await writePublicSuffixTable(tablePath);
    table = loadPublicSuffixes(tablePath);
  });

  it('answers every host on, under and around each of psl’s rules, and psl’s rejects, exactly as psl.parse', () => {
    expect(table.source).toBe('table');
    const hosts = [...ruleHosts(), ...edgeHosts];
    expect(hosts.length).toBeGreaterThan(3 * rules.length);
    const differences = hosts
      .map((host) => ({ host, table: table.parse(host), psl: pslAnswer(host) }))
      .filter((answer) => !isDeepStrictEqual(answer.table, answer.psl));
    expect(differences).toEqual([]);

    // The comparison went through every branch: each of psl's errors, unlisted hosts, `local`, suffixes alone.
    const answers = hosts.map((host) => table.parse(host));
    expect(new Set(answers.flatMap((answer) => ('error' in answer ? [answer.error] : [])))).toEqual(
      new Set([
        'Domain name too long. It should be no more than 255 chars.',
        'Domain name label should be at most 63 chars long.',
        'Domain name label can not start with a dash.',
        'Domain name label can not end with a dash.',
      ]),
    );
    expect(answers).toContainEqual({ listed: false, tld: 'zzzz', domain: 'example.zzzz' });
    expect(answers).toContainEqual({ listed: false, tld: null, domain: null });
    expect(answers).toContainEqual({ listed: true, tld: 'co.uk', domain: null });
  });

  it('keeps psl’s answers for wildcards, exceptions and IDN suffixes (reported in Unicode)', () => {
    expect(table.parse('a.b.foo.bd')).toEqual({ listed: true, tld: 'foo.bd', domain: 'b.foo.bd' });
    expect(table.parse('a.www.ck')).toEqual({ listed: true, tld: 'ck', domain: 'www.ck' });
    expect(table.parse('api.example.xn--p1ai')).toEqual({ listed: true, tld: 'рф', domain: 'example.xn--p1ai' });
    expect(table.parse('acme.s3.us-east-1.amazonaws.com')).toEqual({
      listed: true,
      tld: 's3.us-east-1.amazonaws.com',
      domain: 'acme.s3.us-east-1.amazonaws.com',
    });
  });

  it('falls back to psl, with the same answers, when the table is missing, damaged or made from another psl', () => {
    const dir = mkdtempSync(join(tmpdir(), 'downstack-psl-'));
    const written = JSON.parse(readFileSync(tablePath, 'utf8')) as { version: number; psl: string };
    const variants = {
      damaged: readFileSync(tablePath, 'utf8').slice(0, 5000),
      'another psl': JSON.stringify({ ...written, psl: `0.0.0:${written.psl.split(':')[1]}` }),
      'another version': JSON.stringify({ ...written, version: written.version + 1 }),
      'without keys': JSON.stringify({ ...written, keys: undefined }),
    };
    const fallbacks = [loadPublicSuffixes(join(dir, 'missing.json'))];
    for (const [name, content] of Object.entries(variants)) {
      writeFileSync(join(dir, `${name}.json`), content);
      fallbacks.push(loadPublicSuffixes(join(dir, `${name}.json`)));
    }
    expect(fallbacks.map((fallback) => fallback.source)).toEqual(['psl', 'psl', 'psl', 'psl', 'psl']);
    const hosts = [...ruleHosts(), ...edgeHosts];
    const answers = hosts.map((host) => table.parse(host));
    for (const fallback of fallbacks)
      expect(hosts.filter((host, i) => !isDeepStrictEqual(fallback.parse(host), answers[i]))).toEqual([]);
  });
});
