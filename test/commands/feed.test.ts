import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { writeTestCatalog } from '../helpers/catalog.js';
import { runCli } from '../helpers/cli.js';
import { REPORT_PROVIDERS } from '../helpers/report-fixture.js';

const FIXTURES = 'test/fixtures/report';
/** The report fixture's own providers, never the built-in catalog. */
const FX = { catalog: writeTestCatalog(REPORT_PROVIDERS) };

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  isArray: (name) => name === 'entry',
});
const INDEX = ['--index', join(FIXTURES, 'index'), '--since', '2021-08-01', '--until', '2021-08-12'];

function entries(xml: string): Array<{ id: string; title: { '#text': string } }> {
  expect(XMLValidator.validate(xml)).toBe(true);
  return (
    (parser.parse(xml) as { feed: { entry?: Array<{ id: string; title: { '#text': string } }> } }).feed.entry ?? []
  );
}

describe('downstack feed', () => {
  it("--provider lists that provider's incidents in the window, maintenance left out", async () => {
    const run = await runCli(['feed', '--provider', 'fx-stripe', ...INDEX], FX);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('<id>urn:downstack:feed:provider:fx-stripe</id>');
    expect(entries(run.stdout).map((entry) => entry.id)).toEqual([
      'urn:downstack:incident:fx-stripe:stripe-2021-08-10-api',
    ]);
    const withMaintenance = await runCli(['feed', '--provider', 'fx-stripe', '--include-maintenance', ...INDEX], FX);
    expect(entries(withMaintenance.stdout)).toHaveLength(2);
  });

  it('paths give the incidents that touched the stack, one entry each, with a stable feed id', async () => {
    const first = await runCli(['feed', join(FIXTURES, 'stack'), ...INDEX], FX);
    expect(first.code).toBe(0);
    expect(entries(first.stdout).map((entry) => entry.title['#text'])).toEqual([
      'GitHub: Degraded performance for Actions & Webhooks <us> (open)',
      'Stripe: Elevated error rates on the API',
      'Amazon Web Services: Increased error rates and latencies for Amazon S3 in us-east-1',
    ]);
    const again = await runCli(['feed', join(FIXTURES, 'stack'), ...INDEX], FX);
    const id = (xml: string) => /<id>(urn:downstack:feed:stack:[0-9a-f]{16})<\/id>/.exec(xml)?.[1];
    expect(id(first.stdout)).toBeDefined();
    expect(id(again.stdout)).toBe(id(first.stdout));
  });

  it('refuses --provider together with paths, and an unknown provider', async () => {
    expect((await runCli(['feed', '--provider', 'fx-stripe', join(FIXTURES, 'stack'), ...INDEX], FX)).code).toBe(2);
    const unknown = await runCli(['feed', '--provider', 'nope', ...INDEX], FX);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown provider "nope"');
  });
});
