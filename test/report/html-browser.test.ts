// Opens the HTML report in headless Chromium: the timeline must render with one visible band per finding,
// nothing may be fetched from the network, and the print layout must keep the picture.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import { NOW, fixtureReport } from '../helpers/report-fixture.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

describe('HTML report in a browser', () => {
  it('draws one visible band per finding and per replay window, offline, on screen and in print', async ({ skip }) => {
    if (!existsSync(CHROMIUM)) skip(`${CHROMIUM} is not installed (apt-get install chromium); .ci/run installs it`);
    const report = await fixtureReport();
    const dir = await mkdtemp(join(tmpdir(), 'downstack-html-'));
    const file = join(dir, 'report.html');
    await writeFile(file, renderHtml(report, { now: NOW }));
    // launchPersistentContext gives the fresh --user-data-dir (playwright refuses it as a plain argument).
    const context = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: CHROMIUM,
      args: ARGS,
      headless: true,
      viewport: { width: 1200, height: 900 },
    });
    try {
      const page = await context.newPage();
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      await page.goto(pathToFileURL(file).href);

      const svg = page.locator('svg.timeline');
      const svgBox = await svg.boundingBox();
      expect(svgBox?.width).toBeGreaterThan(500);
      expect(svgBox?.height).toBeGreaterThan(50);

      const bands = page.locator('g.finding-band rect');
      expect(await bands.count()).toBe(report.findings.length);
      const ids = await page
        .locator('g.finding-band')
        .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-incident')));
      expect(ids.sort()).toEqual(report.findings.map((finding) => finding.incident.id).sort());
      for (let i = 0; i < report.findings.length; i++) {
        const box = await bands.nth(i).boundingBox();
        expect(box?.width).toBeGreaterThan(0);
        expect(box?.height).toBeGreaterThan(0);
      }
      // Each band is what the eye sees at its centre, not hidden under another shape.
      const onTop = await bands.evaluateAll((rects) =>
        rects.map((rect) => {
          const box = rect.getBoundingClientRect();
          return rect.ownerDocument.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2) === rect;
        }),
      );
      expect(onTop).toEqual(report.findings.map(() => true));
      expect(await page.locator('rect.replay-band').count()).toBe(report.replay.length);

      const screenshot = await page.screenshot({ fullPage: true });
      expect(screenshot.subarray(1, 4).toString()).toBe('PNG');
      if (process.env.DOWNSTACK_SCREENSHOT_DIR)
        await writeFile(join(process.env.DOWNSTACK_SCREENSHOT_DIR, 'report-screen.png'), screenshot);

      await page.emulateMedia({ media: 'print' });
      const printed = await bands.first().boundingBox();
      expect(printed?.width).toBeGreaterThan(0);
      const pdf = await page.pdf({ printBackground: true });
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      if (process.env.DOWNSTACK_SCREENSHOT_DIR)
        await writeFile(
          join(process.env.DOWNSTACK_SCREENSHOT_DIR, 'report-print.png'),
          await page.screenshot({ fullPage: true }),
        );

      expect(requested.filter((url) => url !== pathToFileURL(file).href)).toEqual([]);
    } finally {
      await context.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
