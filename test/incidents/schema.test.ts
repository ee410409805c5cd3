import { describe, expect, it } from 'vitest';
import { IncidentSchema } from '../../src/incidents/schema.js';
import { replayWindow } from '../../src/replay.js';

const base = {
  provider: 'github',
  id: 'backdated01',
  title: 'Incident on 2020-11-02',
  url: '',
  status: 'resolved',
  impact: 'minor',
  components: [],
  regions: [],
  updates: [{ at: '2020-11-10T20:00:00Z', status: 'resolved', body: 'Degraded performance.', components: [] }],
  source: 'https://www.githubstatus.com/api/v2/incidents.json',
};

describe('the index schema', () => {
  it('never stores a resolution before the start: a record entered after the fact starts at its first update', () => {
    const parsed = IncidentSchema.parse({
      ...base,
      startedAt: '2020-11-16T09:55:00Z',
      resolvedAt: '2020-11-10T20:00:00Z',
    });
    expect([parsed.startedAt, parsed.resolvedAt]).toEqual(['2020-11-10T20:00:00Z', '2020-11-10T20:00:00Z']);
    expect(parsed.conflicts?.[0]).toMatch(
      /resolved at 2020-11-10 20:00 UTC, before it started \(2020-11-16 09:55 UTC\)/,
    );
  });

  it('drops an impact window that ends before it begins, and says so', () => {
    const parsed = IncidentSchema.parse({
      ...base,
      startedAt: '2020-11-10T19:00:00Z',
      resolvedAt: '2020-11-10T20:00:00Z',
      impactWindow: { from: '2020-11-10T19:50:00Z', to: '2020-11-10T19:10:00Z', source: 'text' },
    });
    expect(parsed.impactWindow).toBeUndefined();
    expect(parsed.conflicts).toContain(
      'the stated impact ends (2020-11-10 19:10 UTC) before it begins (2020-11-10 19:50 UTC); no impact window recorded',
    );
    const window = replayWindow(parsed as never);
    expect(window.to !== null && window.to >= window.from).toBe(true);
  });

  it('leaves a consistent record exactly as it was', () => {
    const record = { ...base, startedAt: '2020-11-10T19:00:00Z', resolvedAt: '2020-11-10T20:00:00Z' };
    expect(IncidentSchema.parse(record)).toEqual(record);
  });
});
