import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/loader.js';
import { buildMatcher } from '../../src/catalog/matcher.js';
import type { Dependency, DnsRecordType, Ecosystem } from '../../src/model.js';

// Real SDK packages, API hosts and DNS answers (CNAME targets, name servers, MX, SPF includes, verification TXT,
// cloud addresses) of SaaS providers, kept in the repo: each must map to the expected provider (and component and
// region, where the line names them). A missing mapping here is a user told
// "no exposure" who then trusts it.
const dir = 'test/fixtures/catalog';
const lines = readdirSync(dir)
  .filter((name) => name.startsWith('coverage-') && name.endsWith('.tsv'))
  .flatMap((name) =>
    readFileSync(`${dir}/${name}`, 'utf8')
      .split('\n')
      .map((line, index) => ({ where: `${name}:${index + 1}`, cells: line.split('\t') }))
      .filter(({ cells }) => cells.length >= 3 && !cells[0]?.startsWith('#')),
  );

const catalog = loadCatalog();
const matcher = buildMatcher(catalog);

/** Line kinds of the other registries (issue 19): `pypi`, `go`, …, `image` (a container image), `action` (CI). */
const ECOSYSTEMS: Record<string, Ecosystem> = {
  npm: 'npm',
  host: 'domain',
  pypi: 'pypi',
  go: 'go',
  rubygems: 'rubygems',
  maven: 'maven',
  nuget: 'nuget',
  composer: 'composer',
  cargo: 'cargo',
  image: 'container-image',
  action: 'ci-action',
};

/** A `dns:TYPE` line is one DNS answer a team's own domain could give (issue 17). */
function dependencyOf(kind: string, name: string): Dependency {
  const base = { file: 'coverage', direct: true, via: [name] };
  if (kind.startsWith('dns:')) {
    const type = kind.slice(4) as DnsRecordType;
    return { ...base, ecosystem: 'domain', name: 'acme.example', dns: [{ name: 'acme.example', type, value: name }] };
  }
  const ecosystem = ECOSYSTEMS[kind];
  if (!ecosystem) throw new Error(`unknown coverage line kind "${kind}"`);
  return { ...base, ecosystem, name };
}

/** Names of hosted-service SDKs of one kind, without the negative (`-`) lines. */
const mapped = (kind: string) => lines.filter(({ cells }) => cells[0] === kind && cells[2] !== '-').length;

describe('catalog coverage of real SDKs and hosts', () => {
  it('has at least 150 npm packages, 50 hosts and 80 DNS answers to check', () => {
    expect(lines.filter(({ cells }) => cells[0] === 'npm').length).toBeGreaterThanOrEqual(150);
    expect(lines.filter(({ cells }) => cells[0] === 'host').length).toBeGreaterThanOrEqual(50);
    expect(lines.filter(({ cells }) => cells[0]?.startsWith('dns:')).length).toBeGreaterThanOrEqual(80);
  });

  it('has at least 150 PyPI, 80 Go, 80 RubyGems, 80 Maven and 40 NuGet SDK names, and negatives for each', () => {
    expect(mapped('pypi')).toBeGreaterThanOrEqual(150);
    expect(mapped('go')).toBeGreaterThanOrEqual(80);
    expect(mapped('rubygems')).toBeGreaterThanOrEqual(80);
    expect(mapped('maven')).toBeGreaterThanOrEqual(80);
    expect(mapped('nuget')).toBeGreaterThanOrEqual(40);
    for (const kind of ['pypi', 'go', 'rubygems', 'maven', 'nuget', 'composer', 'cargo', 'image', 'action'])
      expect(lines.filter(({ cells }) => cells[0] === kind && cells[2] === '-').length, kind).toBeGreaterThanOrEqual(2);
  });

  it('maps generic clients (redis, psycopg, requests, go-redis, pg) to nothing', () => {
    const wrong: string[] = [];
    for (const { where, cells } of lines) {
      const [kind = '', name = '', provider] = cells;
      if (provider !== '-') continue;
      const hits = matcher.match(dependencyOf(kind, name));
      if (hits.length > 0) wrong.push(`${where}: ${name} → expected nothing, got ${JSON.stringify(hits)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('maps every listed package and host to the expected provider, component and region', () => {
    const failures: string[] = [];
    for (const { where, cells } of lines) {
      const [kind = '', name = '', provider, component, region] = cells;
      if (provider === '-') continue;
      const hits = matcher.match(dependencyOf(kind, name));
      const ok = hits.some(
        (hit) =>
          hit.provider === provider &&
          (!component || hit.component?.name === component) &&
          (!region || (hit.component?.region ?? hit.region) === region),
      );
      if (!ok)
        failures.push(
          `${where}: ${name} → expected ${[provider, component, region].filter(Boolean).join(' / ')}, got ${JSON.stringify(hits)}`,
        );
    }
    expect(failures).toEqual([]);
  });
});
