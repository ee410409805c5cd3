import { describe, expect, it } from 'vitest';
import { md, renderMarkdown } from '../../src/report/markdown.js';
import { NOW, fixtureReport } from '../helpers/report-fixture.js';

describe('Markdown comment', () => {
  it('neutralises markup, HTML and mentions in remote text', () => {
    expect(md('a | b')).toBe('a \\| b');
    expect(md('[click](https://evil.example)')).toBe('\\[click\\](https:&#8203;//evil.example)');
    expect(md('<img src=x onerror=alert(1)>')).toBe('&lt;img src=x onerror=alert(1)>');
    expect(md('cc @octocat')).toBe('cc @&#8203;octocat');
    expect(md('**bold** `code` ~strike~ _em_')).toBe('\\*\\*bold\\*\\* \\`code\\` \\~strike\\~ \\_em\\_');
  });

  it('keeps a value on its line and out of GitHub autolinks and references', () => {
    expect(md('API\n## Heading\n| a | b |')).toBe('API ## Heading \\| a \\| b \\|');
    expect(md('see acme/infra#12, #3 and GH-4')).toBe('see acme/infra#&#8203;12, #&#8203;3 and G&#8203;H-4');
    expect(md('www.evil.example or mail ops@evil.example')).toBe(
      'w&#8203;ww.evil.example or mail ops@&#8203;evil.example',
    );
    // The entity put in for one match is never read as another (`&#8203;` holds `#8`).
    expect(md('@#1')).toBe('@&#8203;#&#8203;1');
  });

  it('keeps every incident row at five cells even when a title holds pipes and brackets', async () => {
    const report = await fixtureReport();
    const first = report.findings[0];
    if (!first) throw new Error('fixture has findings');
    report.findings[0] = {
      ...first,
      incident: {
        ...first.incident,
        title: 'API | Dashboard [degraded](https://evil.example) @here',
        url: 'https://example.com/a_(b)',
      },
    };
    const text = renderMarkdown(report, { now: NOW });
    const rows = text.split('\n').filter((line) => /^\| (🔴|resolved)/.test(line));
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row.replace(/\\\|/g, '').split('|').length - 2).toBe(5);
    expect(text).toContain('(https://example.com/a_%28b%29)');
    expect(text).not.toMatch(/@here/);
  });

  it('lists the checklist for each provider: use, catch up after the stated duration, replay, subscribe', async () => {
    const text = renderMarkdown(await fixtureReport(), { now: NOW });
    const aws = text.slice(text.indexOf('**Amazon Web Services**'), text.indexOf('<details>'));
    expect(aws).toContain(
      '- [ ] Check whether you really use Amazon Simple Storage Service (found at `package.json:7 @aws-sdk/client-s3`).',
    );
    expect(aws).toContain('caught up after the 1h 2m of stated impact (2021-08-10 19:39 → 20:41 UTC)');
    expect(aws).toContain('- [ ] Replay work that failed in 2021-08-10 19:39 → 20:47 UTC.');
    expect(aws).toContain(
      '- [ ] Subscribe to the status feed of Amazon Web Services: <https://status.aws.amazon.com/rss/all.rss>',
    );
  });
});
