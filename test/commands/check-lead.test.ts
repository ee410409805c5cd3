// Replay from when impact began, through the built binary: a window whose start is only the page's first post starts
// earlier, the report says why, --lead changes it, and a start the text states is never moved.
import { describe, expect, it } from 'vitest';
import { writeTestCatalog } from '../helpers/catalog.js';
import { runCli as run } from '../helpers/cli.js';
import { FIXTURES, REPORT_PROVIDERS } from '../helpers/report-fixture.js';

const catalog = writeTestCatalog(REPORT_PROVIDERS);
const runCli = (args: string[]) => run(args, { catalog });

const args = [
  'check',
  `${FIXTURES}/stack`,
  '--index',
  `${FIXTURES}/index`,
  '--since',
  '2021-08-10',
  '--until',
  '2021-08-12',
  '--no-snapshot',
];

describe('check --lead', () => {
  it('starts a first-post-only replay earlier by the measured lead and says so in the table and in JSON', async () => {
    const table = await runCli(args);
    expect(table.code).toBe(0);
    expect(table.stderr).toBe('');
    expect(table.stdout).toMatch(
      /replay from 19:\d\d — the page posted at 20:30 UTC; impact usually begins earlier \(\d+m lead, median of \d+ GitHub incidents\)/,
    );
    const json = JSON.parse((await runCli([...args, '--format', 'json'])).stdout);
    const stripe = json.findings.find((finding: { provider: string }) => finding.provider === 'fx-stripe');
    expect(stripe.replay.lead).toMatchObject({
      postedAt: '2021-08-10T20:30:00Z',
      basis: expect.stringMatching(/^median of \d+ GitHub incidents$/),
    });
    expect(Date.parse(stripe.replay.from)).toBe(
      Date.parse('2021-08-10T20:30:00Z') - stripe.replay.lead.minutes * 60_000,
    );
  });

  it('takes --lead instead, and --lead 0 starts replays at the first post', async () => {
    const json = JSON.parse((await runCli([...args, '--format', 'json', '--lead', '25m'])).stdout);
    const stripe = json.findings.find((finding: { provider: string }) => finding.provider === 'fx-stripe');
    expect(stripe.replay).toEqual({
      from: '2021-08-10T20:05:00Z',
      to: '2021-08-10T21:05:00Z',
      lead: { postedAt: '2021-08-10T20:30:00Z', minutes: 25, basis: '--lead' },
    });
    const none = JSON.parse((await runCli([...args, '--format', 'json', '--lead', '0'])).stdout);
    expect(none.findings.find((finding: { provider: string }) => finding.provider === 'fx-stripe').replay).toEqual({
      from: '2021-08-10T20:30:00Z',
      to: '2021-08-10T21:05:00Z',
    });
  });

  it('never moves a start the text states', async () => {
    const json = JSON.parse((await runCli([...args, '--format', 'json', '--lead', '3h'])).stdout);
    const s3 = json.findings.find((finding: { provider: string }) => finding.provider === 'fx-aws');
    expect(s3.replay).toEqual({ from: '2021-08-10T19:39:00Z', to: '2021-08-10T20:47:00Z' });
  });

  it('refuses a lead that is not a length of time', async () => {
    const run = await runCli([...args, '--lead', 'soon']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--lead "soon" is not a length of time/);
  });
});
