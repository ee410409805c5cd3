import { describe, expect, it } from 'vitest';
import { forOutput } from '../../src/sanitize.js';
import { renderAtom } from '../../src/report/atom.js';
import { renderCheck } from '../../src/report/render.js';
import { CHECK_FORMATS } from '../../src/report/formats.js';
import { NOW, configuredReport, expectGolden, fixtureReport } from '../helpers/report-fixture.js';

const EXTENSIONS = {
  table: 'txt',
  json: 'json',
  markdown: 'md',
  sarif: 'sarif.json',
  github: 'github.txt',
  gitlab: 'gitlab.json',
  html: 'html',
} as const;

describe('every check format on the fixed stack and index', () => {
  for (const format of CHECK_FORMATS) {
    it(`renders ${format} exactly as the golden file`, async () => {
      const report = await fixtureReport();
      const text = forOutput(await renderCheck(report, format, { now: NOW }));
      expectGolden(text, `stack.${EXTENSIONS[format]}`);
      // No wall-clock time leaks into a report: every date in it comes from the fixtures or the fixed clock.
      expect(text).not.toContain(new Date().toISOString().slice(0, 10));
    });
  }

  for (const format of ['markdown', 'sarif', 'github', 'gitlab', 'html'] as const) {
    it(`renders ${format} with an ignored finding and an expired ignore rule`, async () => {
      const { report, notes } = await configuredReport();
      expectGolden(
        forOutput(await renderCheck(report, format, { now: NOW, notes })),
        `configured.${EXTENSIONS[format]}`,
      );
    });
  }

  for (const format of ['table', 'json', 'markdown', 'html'] as const) {
    it(`renders ${format} with the scheduled jobs that ran in each replay window`, async () => {
      const report = await fixtureReport('jobs-stack');
      expectGolden(forOutput(await renderCheck(report, format, { now: NOW })), `jobs.${EXTENSIONS[format]}`);
    });
  }

  it('renders the stack feed as the golden Atom file', async () => {
    const report = await fixtureReport();
    const entries = report.findings.map((finding) => ({
      incident: finding.incident,
      providerName: report.catalog.providers.get(finding.provider)?.name ?? finding.provider,
      components: finding.components,
      replay: finding.replay,
    }));
    expectGolden(
      renderAtom({
        id: 'urn:downstack:feed:stack:fixture',
        title: 'Provider incidents touching this stack',
        now: NOW,
        entries,
      }),
      'stack.atom.xml',
    );
  });
});
