import { describe, expect, it } from 'vitest';
import type { Finding, ReplayBand } from '../../src/model.js';
import { renderTable } from '../../src/report/table.js';
import { forOutput } from '../../src/sanitize.js';
import { fixtureReport, NOW } from '../helpers/report-fixture.js';

/** A long audit window: `count` resolved findings a day apart (newest first, as findings are sorted), one open. */
async function longWindowReport(count: number) {
  const report = await fixtureReport();
  const base = report.findings[0] as Finding;
  const day = (n: number) => new Date(Date.UTC(2021, 0, 1 + n, 10)).toISOString().replace('.000Z', 'Z');
  const resolved: Finding[] = [];
  const bands: ReplayBand[] = [];
  for (let n = 0; n < count; n++) {
    const from = day(n);
    const to = day(n).replace('T10', 'T11');
    resolved.unshift({
      ...base,
      active: false,
      incident: { ...base.incident, id: `fx-${n}`, title: `Incident number ${n}`, startedAt: from },
      replay: { ...base.replay, from, to },
    });
    bands.push({ from, to, providers: [base.provider] });
  }
  const open: Finding = {
    ...base,
    active: true,
    incident: { ...base.incident, id: 'fx-open', title: 'The open one', startedAt: day(-300) },
    replay: { ...base.replay, from: day(-300), to: null },
  };
  bands.unshift({ from: day(-300), to: null, providers: [base.provider] });
  return { ...report, findings: [open, ...resolved], replay: bands };
}

describe('the table on a long window', () => {
  it('shows the newest incidents and replay windows, keeps the open ones, and counts the rest', async () => {
    const report = await longWindowReport(30);
    const out = forOutput(renderTable(report, { now: NOW, limit: 5 }));

    expect(out).toContain('Incidents that touched this stack (31, the 5 newest shown)');
    expect(out).toContain('The open one');
    for (const n of [29, 28, 27, 26]) expect(out).toContain(`Incident number ${n}`);
    expect(out).not.toContain('Incident number 25');
    expect(out).toContain('… and 26 older incidents in this window: see them all with --limit 0');

    const replay = out.slice(out.indexOf('What to replay'));
    expect(replay).toContain('26 earlier windows not shown');
    expect(replay).toContain('now (still open)');
    expect(replay.match(/may need a replay/g)).toHaveLength(5);
    expect(replay).toContain('2021-01-30 10:00 UTC');
    expect(replay).not.toContain('2021-01-25 10:00 UTC');
  });

  it('shows every incident and window with limit 0, and says nothing about hidden ones', async () => {
    const report = await longWindowReport(30);
    const out = forOutput(renderTable(report, { now: NOW, limit: 0 }));

    expect(out).toContain('Incidents that touched this stack (31)\n');
    expect(out.match(/Incident number \d+/g)).toHaveLength(30);
    expect(out.match(/may need a replay/g)).toHaveLength(31);
    expect(out).not.toContain('not shown');
    expect(out).not.toContain('older incident');
  });
});
