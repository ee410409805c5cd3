import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/loader.js';
import { CatalogError } from '../../src/errors.js';
import { TEST_PROVIDERS, writeTestCatalog } from '../helpers/catalog.js';

const mini = () => writeTestCatalog(['aws', 'google-cloud', 'heroku', 'stripe', 'twingate']);

describe('catalog loader', () => {
  it('loads providers with id = file name', () => {
    const catalog = loadCatalog([mini()]);
    expect([...catalog.providers.keys()].sort()).toEqual(['aws', 'google-cloud', 'heroku', 'stripe', 'twingate']);
    expect(catalog.providers.get('twingate')?.status.pageId).toBe('d3m2m1y4ghc6');
  });

  it('reports every problem at once, each with file:line', () => {
    let problems: string[] = [];
    try {
      loadCatalog(['test/fixtures/catalog-broken']);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CatalogError);
      problems = (error as CatalogError).problems;
    }
    const text = problems.join('\n');
    expect(text).toMatch(/Bad_Name\.yaml: file name must be a lowercase id/);
    expect(text).toMatch(/Bad_Name\.yaml:2: category: Invalid option/);
    expect(text).toMatch(/Bad_Name\.yaml:4: status\.url: must be an http\(s\) URL/);
    expect(text).toMatch(/typo-key\.yaml:\d+: Unrecognized key: "componets"/);
    expect(text).toMatch(/no-matcher\.yaml: has no matcher/);
    // typo-key.yaml fails validation, so Bad_Name's `typo-sdk` claim is not a duplicate; the bad runsOn is
    // reported only for providers that validated.
    expect(problems.length).toBeGreaterThanOrEqual(5);
  });

  it('takes single provider files as well as directories', () => {
    const single = loadCatalog([`${TEST_PROVIDERS}/stripe.yaml`]);
    expect([...single.providers.keys()]).toEqual(['stripe']);
    expect(() => loadCatalog([mini(), 'test/fixtures/catalog-duplicate/stripe-clone.yaml'])).toThrowError(
      /npm "stripe" is also claimed/,
    );
  });

  it('rejects an npm name claimed by two unrelated providers', () => {
    expect(() => loadCatalog([mini(), 'test/fixtures/catalog-duplicate'])).toThrowError(
      /npm "stripe" is also claimed by provider "stripe"/,
    );
  });

  it("rejects an npmExclude entry outside the provider's scopes, or one that takes back a name it claims", () => {
    const dir = mkdtempSync(join(tmpdir(), 'downstack-catalog-'));
    writeFileSync(
      join(dir, 'acme.yaml'),
      [
        'name: Acme',
        'category: cloud',
        'status: { url: "https://status.acme.example", platform: statuspage }',
        'match:',
        '  npm: ["@acme/*", "@acme/build-sdk"]',
        '  npmExclude: ["@acme/eslint-config", "@other/utils", "@acme/build-*"]',
      ].join('\n'),
    );
    let problems: string[] = [];
    try {
      loadCatalog([dir]);
      expect.unreachable();
    } catch (error) {
      problems = (error as CatalogError).problems;
    }
    expect(problems).toEqual([
      expect.stringMatching(
        /acme\.yaml: npmExclude "@other\/utils" is under none of this provider's "@scope\/\*" patterns/,
      ),
      expect.stringMatching(/acme\.yaml: npm "@acme\/build-sdk" is both claimed and excluded by npmExclude/),
    ]);
  });

  it('reports a provider file whose YAML aliases would expand without bound, a dangling link and a named pipe, without reading them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'downstack-catalog-'));
    let yaml = 'name: &a ["x","x","x","x","x","x","x","x","x"]\n';
    for (let i = 0, previous = 'a'; i < 9; i++, previous = `l${i - 1}`)
      yaml += `l${i}: &l${i} [${Array(9).fill(`*${previous}`).join(',')}]\n`;
    writeFileSync(join(dir, 'bomb.yaml'), yaml);
    execFileSync('mkfifo', [join(dir, 'pipe.yaml')]);
    symlinkSync(join(dir, 'nowhere.yaml'), join(dir, 'ghost.yaml'));
    expect(() => loadCatalog([dir])).toThrowError(
      /bomb\.yaml: Excessive alias count[\s\S]*ghost\.yaml: cannot read \(ENOENT\)[\s\S]*pipe\.yaml: not a regular file; not a provider file/,
    );
  });
});
