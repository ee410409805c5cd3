import { describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/catalog/loader.js';
import { findIncidents } from '../../src/incidents/findings.js';
import { type LeadTable, leadResolver, startIsFirstPost } from '../../src/incidents/lead.js';
import type { Exposure, Incident } from '../../src/model.js';
import { replayWindow } from '../../src/replay.js';

// A Statuspage incident as sync stores it: started_at is when the page first posted.
const posted = (overrides: Partial<Incident> = {}): Incident => ({
  provider: 'github',
  id: 'kz4khcgdsfdv',
  title: 'Incident with Actions',
  url: 'https://www.githubstatus.com/incidents/kz4khcgdsfdv',
  status: 'resolved',
  impact: 'major',
  components: ['Actions'],
  regions: [],
  startedAt: '2023-03-02T19:39:12Z',
  resolvedAt: '2023-03-02T21:04:00Z',
  updates: [
    { at: '2023-03-02T19:39:12Z', status: 'investigating', body: 'We are investigating.', components: ['Actions'] },
    { at: '2023-03-02T21:04:00Z', status: 'resolved', body: 'This incident has been resolved.', components: [] },
  ],
  source: 'https://www.githubstatus.com/api/v2/incidents.json',
  ...overrides,
});

const catalog = {
  providers: new Map([
    ['github', { id: 'github', name: 'GitHub', status: { platform: 'statuspage' }, components: [] }],
    ['google-cloud', { id: 'google-cloud', name: 'Google Cloud', status: { platform: 'gcp' }, components: [] }],
    ['slack', { id: 'slack', name: 'Slack', status: { platform: 'slack' }, components: [] }],
  ]),
} as unknown as Catalog;

const table: LeadTable = {
  schemaVersion: 1,
  platforms: {
    statuspage: { minutes: 34, sample: 412, p25: 12, p75: 71, measuredOn: 'GitHub' },
    gcp: { minutes: 41, sample: 630, p25: 18, p75: 95, measuredOn: 'Google Cloud' },
  },
  fallback: 'statuspage',
};

describe('whether a start is only the first post', () => {
  it('is, for a Statuspage incident whose start is the minute its first update was posted', () => {
    expect(startIsFirstPost(posted(), 'statuspage')).toBe(true);
  });

  it('is not, when the page back-dated its start before the first post', () => {
    expect(startIsFirstPost(posted({ startedAt: '2023-03-02T19:05:00Z' }), 'statuspage')).toBe(false);
  });

  it('is not, when the text states when impact began', () => {
    const stated = posted({
      impactWindow: { from: '2023-03-02T19:20:00Z', to: '2023-03-02T20:50:00Z', source: 'resolution update' },
    });
    expect(startIsFirstPost(stated, 'statuspage')).toBe(false);
  });

  it('is not, for Google Cloud, whose `begin` is the impact start it states', () => {
    expect(startIsFirstPost(posted({ provider: 'google-cloud' }), 'gcp')).toBe(false);
  });

  it('follows the precision the bundled history and the snapshot record', () => {
    expect(startIsFirstPost(posted({ timePrecision: 'upper-bound' }), 'gcp')).toBe(true);
    expect(startIsFirstPost(posted({ timePrecision: 'exact' }), 'statuspage')).toBe(false);
    expect(startIsFirstPost(posted({ timePrecision: 'from-text' }), 'statuspage')).toBe(false);
  });
});

describe('the lead applied to replay windows', () => {
  it("starts a first-post-only window earlier by its platform's measured lead and says so", () => {
    const lead = leadResolver(catalog, table)(posted());
    expect(lead).toEqual({
      postedAt: '2023-03-02T19:39:12Z',
      minutes: 34,
      basis: 'median of 412 GitHub incidents',
    });
    expect(replayWindow(posted(), lead)).toEqual({
      from: '2023-03-02T19:05:12Z',
      to: '2023-03-02T21:04:00Z',
      lead: { postedAt: '2023-03-02T19:39:12Z', minutes: 34, basis: 'median of 412 GitHub incidents' },
    });
  });

  it('uses the fallback platform for a platform without its own figure', () => {
    expect(leadResolver(catalog, table)(posted({ provider: 'slack' }))?.minutes).toBe(34);
  });

  it('never moves a stated start, whatever the lead', () => {
    const stated = posted({
      impactWindow: { from: '2023-03-02T19:20:00Z', to: '2023-03-02T20:50:00Z', source: 'resolution update' },
    });
    expect(leadResolver(catalog, table, 90)(stated)).toBeUndefined();
    expect(replayWindow(stated, leadResolver(catalog, table, 90)(stated)).from).toBe('2023-03-02T19:20:00Z');
  });

  it('takes --lead over the measured figure, and 0 turns it off', () => {
    expect(leadResolver(catalog, table, 10)(posted())).toMatchObject({ minutes: 10, basis: '--lead' });
    expect(leadResolver(catalog, table, 0)(posted())).toBeUndefined();
  });

  it('applies no lead when no figure was measured', () => {
    expect(leadResolver(catalog, undefined)(posted())).toBeUndefined();
  });

  it('finds an incident whose page posted after the audit window ended, when impact had likely begun inside it', () => {
    const exposure: Exposure = {
      provider: 'github',
      components: [{ name: 'Actions' }],
      evidence: [],
      devOnly: false,
    };
    const audit = {
      since: new Date('2023-03-02T19:00:00Z'),
      until: new Date('2023-03-02T19:30:00Z'),
      now: new Date('2023-03-03T00:00:00Z'),
    };
    const incidents = new Map([['github', [posted()]]]);
    expect(findIncidents([exposure], incidents, catalog, audit)).toEqual([]);
    const found = findIncidents([exposure], incidents, catalog, { ...audit, leadFor: leadResolver(catalog, table) });
    expect(found.map((finding) => finding.replay.from)).toEqual(['2023-03-02T19:05:12Z']);
  });
});
