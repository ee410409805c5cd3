import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/loader.js';
import { buildMatcher } from '../../src/catalog/matcher.js';
import type { Dependency, DnsRecordType } from '../../src/model.js';

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

/** A `dns:TYPE` line is one DNS answer a team's own domain could give (issue 17). */
function dependencyOf(kind: string, name: string): Dependency {
  const base = { file: 'coverage', direct: true, via: [name] };
  if (kind.startsWith('dns:')) {
    const type = kind.slice(4) as DnsRecordType;
    return { ...base, ecosystem: 'domain', name: 'acme.example', dns: [{ name: 'acme.example', type, value: name }] };
  }
  return { ...base, ecosystem: kind === 'npm' ? 'npm' : 'domain', name };
}

describe('catalog coverage of real SDKs and hosts', () => {
  it('has at least 150 npm packages, 50 hosts and 80 DNS answers to check', () => {
    expect(lines.filter(({ cells }) => cells[0] === 'npm').length).toBeGreaterThanOrEqual(150);
    expect(lines.filter(({ cells }) => cells[0] === 'host').length).toBeGreaterThanOrEqual(50);
    expect(lines.filter(({ cells }) => cells[0]?.startsWith('dns:')).length).toBeGreaterThanOrEqual(80);
  });

  it('maps every listed package and host to the expected provider, component and region', () => {
    const failures: string[] = [];
    for (const { where, cells } of lines) {
      const [kind = '', name = '', provider, component, region] = cells;
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
