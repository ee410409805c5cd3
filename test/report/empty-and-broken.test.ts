import { describe, expect, it } from 'vitest';
import { forOutput } from '../../src/sanitize.js';
import { runCheck } from '../../src/check.js';
import { renderCheck } from '../../src/report/render.js';
import { testCatalog } from '../helpers/catalog.js';
import { FIXTURES, NOW, REPORT_PROVIDERS } from '../helpers/report-fixture.js';

async function report(stack: string, since: string, until: string) {
  return runCheck({
    paths: [`${FIXTURES}/${stack}`],
    indexDir: `${FIXTURES}/index`,
    since: new Date(since),
    until: new Date(until),
    now: NOW,
    catalog: testCatalog(REPORT_PROVIDERS),
  });
}

describe('reports with nothing to say, and with inputs that had problems', () => {
  it('a quiet window says so, shows recent incidents for context, and draws no timeline', async () => {
    const quiet = await report('stack', '2021-05-01T00:00Z', '2021-05-02T00:00Z');
    expect(quiet.findings).toEqual([]);
    const markdown = forOutput(await renderCheck(quiet, 'markdown', { now: NOW }));
    expect(markdown).toMatch(/^## downstack: no provider incident touched this stack/);
    expect(markdown).not.toContain('### What to replay');
    const html = forOutput(await renderCheck(quiet, 'html', { now: NOW }));
    expect(html).toContain('No provider incident touched this stack');
    expect(html).not.toContain('<svg');
    expect(forOutput(await renderCheck(quiet, 'github', { now: NOW })).trim()).toBe(
      'downstack: 0 incidents touched this stack (0 open) between 2021-05-01 00:00 UTC and 2021-05-02 00:00 UTC',
    );
  });

  it('lists a skipped dependency with file:line in every human format, and still reports the rest', async () => {
    const broken = await report('broken-stack', '2021-08-10T00:00Z', '2021-08-12T00:00Z');
    expect(broken.findings.map((finding) => finding.provider)).toEqual(['fx-stripe']);
    const where = `${FIXTURES}/broken-stack/package.json:5`;
    // The @ carries a zero-width space (as an entity) in Markdown, so a scoped name cannot mention a GitHub team.
    expect(forOutput(await renderCheck(broken, 'markdown', { now: NOW }))).toContain(
      `- \`${where}\`: version of "@&#8203;sendgrid/mail" in dependencies must be a string; skipped`,
    );
    expect(forOutput(await renderCheck(broken, 'html', { now: NOW }))).toContain(
      `<code>${where}</code>: version of &quot;@sendgrid/mail&quot;`,
    );
  });
});
