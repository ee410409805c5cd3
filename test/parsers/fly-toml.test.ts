// fly.toml: an app on Fly.io, as its host on fly.dev, in its primary region.
import { describe, expect, it } from 'vitest';
import { buildMatcher, exposuresFor } from '../../src/catalog/matcher.js';
import { flyTomlParser } from '../../src/parsers/fly-toml.js';
import { parserForPath } from '../../src/parsers/index.js';
import { scanPaths } from '../../src/scan.js';
import { testCatalog } from '../helpers/catalog.js';

const FIXTURES = 'test/fixtures/fly';

describe('fly.toml', () => {
  it('is claimed by name, per-environment copies included, and never sniffed from a pasted text', async () => {
    expect(await parserForPath('app/fly.toml')).toBe(flyTomlParser);
    expect(await parserForPath('app/fly.staging.toml')).toBe(flyTomlParser);
    expect(await parserForPath('app/netlify.toml')).not.toBe(flyTomlParser);
    expect(flyTomlParser.sniff("app = 'acme'\nprimary_region = 'fra'\n")).toBe(false);
  });

  it("gives the app's fly.dev host with its primary region and the line that names the app", async () => {
    const { inputs, errors } = await scanPaths([`${FIXTURES}/http-service`]);
    expect(errors).toEqual([]);
    expect(inputs.map((input) => [input.file, input.kind, input.dependencies])).toEqual([
      [
        `${FIXTURES}/http-service/fly.staging.toml`,
        'fly.toml',
        [
          {
            ecosystem: 'domain',
            name: 'acme-ledger-staging.fly.dev',
            region: 'ams',
            file: `${FIXTURES}/http-service/fly.staging.toml`,
            line: 1,
            direct: true,
            via: ['acme-ledger-staging', 'acme-ledger-staging.fly.dev'],
          },
        ],
      ],
      [
        `${FIXTURES}/http-service/fly.toml`,
        'fly.toml',
        [expect.objectContaining({ name: 'acme-ledger.fly.dev', region: 'fra', line: 6 })],
      ],
    ]);
  });

  it('reads a file from before primary_region existed, with no region', async () => {
    const { inputs } = await scanPaths([`${FIXTURES}/legacy-services/fly.toml`]);
    expect(inputs[0]?.dependencies).toEqual([expect.objectContaining({ name: 'receipts-worker.fly.dev', line: 3 })]);
    expect(inputs[0]?.dependencies[0]?.region).toBeUndefined();
  });

  it('says why a file without an app name counts for nothing, and names the line of broken TOML', async () => {
    const none = await scanPaths([`${FIXTURES}/no-app/fly.toml`]);
    expect(none.inputs[0]?.dependencies).toEqual([]);
    expect(none.inputs[0]?.errors[0]?.message).toMatch(/^no app name \(it is given at deploy time with -a\)/);
    const broken = await scanPaths([`${FIXTURES}/broken/fly.toml`]);
    expect(broken.inputs[0]?.errors).toEqual([
      { file: `${FIXTURES}/broken/fly.toml`, line: 1, message: expect.stringMatching(/^not valid TOML: /) },
    ]);
  });

  it('maps through the catalog to the Fly.io proxy in that region', async () => {
    const catalog = testCatalog(['fly-io']);
    const { inputs } = await scanPaths([`${FIXTURES}/http-service/fly.toml`]);
    const { exposures } = exposuresFor(inputs[0]?.dependencies ?? [], buildMatcher(catalog), catalog);
    expect(
      exposures.map((exposure) => [
        exposure.provider,
        exposure.components.map(({ name, region }) => ({ name, region })),
      ]),
    ).toEqual([['fly-io', [{ name: 'Fly Proxy', region: 'fra' }]]]);
  });
});
