import { describe, expect, it } from 'vitest';
import type { Incident } from '../../src/model.js';
import { mergeIncidents, sourceRank } from '../../src/sync/merge.js';

const API = 'https://status.example.com/api/v2/incidents.json';
const FEED = 'https://status.example.com/history.atom';
const NOW = '2026-09-30T12:00:00Z';

function incident(id: string, patch: Partial<Incident> = {}): Incident {
  return {
    provider: 'p',
    id,
    title: `Incident ${id}`,
    url: `https://status.example.com/incidents/${id}`,
    status: 'investigating',
    impact: 'minor',
    kind: 'incident',
    components: [],
    regions: [],
    startedAt: '2026-09-01T10:00:00Z',
    resolvedAt: null,
    updates: [{ at: '2026-09-01T10:00:00Z', status: 'investigating', body: 'Looking.', components: [] }],
    source: API,
    ...patch,
  };
}

describe('mergeIncidents', () => {
  it('keeps what the API window no longer returns and counts added and updated', () => {
    const old = incident('old', {
      startedAt: '2020-01-01T00:00:00Z',
      status: 'resolved',
      resolvedAt: '2020-01-01T01:00:00Z',
    });
    const current = incident('a');
    const result = mergeIncidents(
      [old, current],
      [
        {
          source: API,
          rank: 3,
          listsAllOpen: false,
          incidents: [incident('a', { status: 'resolved', resolvedAt: '2026-09-01T11:00:00Z' }), incident('b')],
        },
      ],
      NOW,
    );
    expect(result.incidents.map((entry) => entry.id)).toEqual(['a', 'b', 'old']);
    expect(result).toMatchObject({ added: 1, updated: 1, closed: 0 });
  });

  it('an unchanged payload changes nothing', () => {
    const existing = [incident('a')];
    expect(
      mergeIncidents(existing, [{ source: API, rank: 3, listsAllOpen: false, incidents: [incident('a')] }], NOW),
    ).toMatchObject({ added: 0, updated: 0, closed: 0 });
  });

  it('the API version wins over the feed for the same incident, and the updates are the union', () => {
    const fromApi = incident('a', { components: ['API'], impact: 'major' });
    const fromFeed = incident('a', {
      source: FEED,
      impact: 'unknown',
      updates: [
        {
          at: '2026-09-01T09:55:00Z',
          status: 'investigating',
          body: 'Earlier note only the feed kept.',
          components: [],
        },
      ],
      startedAt: '2026-09-01T09:55:00Z',
    });
    const result = mergeIncidents(
      [],
      [
        { source: FEED, rank: 2, listsAllOpen: false, incidents: [fromFeed] },
        { source: API, rank: 3, listsAllOpen: false, incidents: [fromApi] },
      ],
      NOW,
    );
    expect(result.incidents[0]).toMatchObject({
      impact: 'major',
      components: ['API'],
      // Both sources are kept, API first: the record says where each part came from.
      source: `${API}; ${FEED}`,
      startedAt: '2026-09-01T09:55:00Z',
    });
    expect(result.incidents[0]?.updates.map((update) => update.at)).toEqual([
      '2026-09-01T09:55:00Z',
      '2026-09-01T10:00:00Z',
    ]);
  });

  it('closes an open incident that a list-of-open source no longer lists, but only for that source', () => {
    const listed = incident('gone', { source: 'https://s.example.com/feed/' });
    const elsewhere = incident('other');
    const result = mergeIncidents(
      [listed, elsewhere],
      [{ source: 'https://s.example.com/feed/', rank: 2, listsAllOpen: true, incidents: [] }],
      NOW,
    );
    expect(result.closed).toBe(1);
    expect(result.incidents.find((entry) => entry.id === 'gone')).toMatchObject({
      status: 'resolved',
      resolvedAt: NOW,
    });
    expect(result.incidents.find((entry) => entry.id === 'gone')?.updates.at(-1)?.body).toMatch(/No longer listed/);
    expect(result.incidents.find((entry) => entry.id === 'other')?.resolvedAt).toBeNull();
  });

  it('an id reused after its incident closed becomes a new incident; the old one is kept', () => {
    const closed = incident('slug', {
      status: 'resolved',
      resolvedAt: '2026-07-23T20:00:00Z',
      startedAt: '2026-07-23T16:29:09Z',
    });
    const reused = incident('slug', { startedAt: '2026-08-03T08:00:00Z', updates: [] });
    const first = mergeIncidents([closed], [{ source: API, rank: 3, listsAllOpen: false, incidents: [reused] }], NOW);
    expect(first.incidents.map((entry) => entry.id).sort()).toEqual(['slug', 'slug~2026-08-03T08:00']);
    // The next sync sees the same reused id again and updates the new incident, not the old one.
    const again = mergeIncidents(
      first.incidents,
      [{ source: API, rank: 3, listsAllOpen: false, incidents: [{ ...reused, title: 'Renamed' }] }],
      NOW,
    );
    expect(again.incidents.find((entry) => entry.id === 'slug~2026-08-03T08:00')?.title).toBe('Renamed');
    expect(again.incidents.find((entry) => entry.id === 'slug')?.title).toBe('Incident slug');
  });

  it('keeps what an import added (stated impact window, upstream) when the API version replaces the incident', () => {
    const imported = incident('a', {
      source: 'postmortem.md',
      impactWindow: { from: '2026-09-01T09:40:00Z', to: '2026-09-01T10:30:00Z', source: 'postmortem text' },
      upstream: ['aws'],
    });
    const result = mergeIncidents(
      [imported],
      [
        {
          source: `${API}; postmortem.md`,
          rank: 3,
          listsAllOpen: false,
          incidents: [incident('a', { status: 'resolved', resolvedAt: '2026-09-01T11:00:00Z' })],
        },
      ],
      NOW,
    );
    expect(result.incidents[0]).toMatchObject({
      status: 'resolved',
      source: `${API}; postmortem.md`,
      upstream: ['aws'],
      impactWindow: { from: '2026-09-01T09:40:00Z' },
    });
  });

  it('ranks sources by their URL', () => {
    expect(sourceRank(FEED)).toBe(2);
    expect(sourceRank('https://azure.status.microsoft/en-us/status/feed/')).toBe(2);
    expect(sourceRank(API)).toBe(3);
    expect(sourceRank('https://health.aws.amazon.com/public/currentevents')).toBe(3);
    expect(sourceRank('import statuspage: incidents.json')).toBe(3);
    expect(sourceRank('import feed: history.atom')).toBe(2);
    expect(sourceRank('import text: postmortem.md')).toBe(1);
  });
});

describe('bounds on the index', () => {
  it('recognises an incident a page lists again under a new id (same title, same minute) and keeps its first id', () => {
    const first = mergeIncidents(
      [],
      [{ source: API, rank: 3, listsAllOpen: false, incidents: [incident('id-1')] }],
      NOW,
    );
    const rotated = mergeIncidents(
      first.incidents,
      [{ source: API, rank: 3, listsAllOpen: false, incidents: [incident('id-2', { title: 'Incident id-1' })] }],
      NOW,
    );
    expect(rotated.incidents.map((entry) => entry.id)).toEqual(['id-1']);
    expect(rotated.added).toBe(0);
  });

  it('drops the oldest sync-only incidents past the cap, never imported or embedded ones', () => {
    const old = (id: string, day: number, source: string) =>
      incident(id, {
        source,
        status: 'resolved',
        startedAt: `2020-01-${String(day).padStart(2, '0')}T00:00:00Z`,
        resolvedAt: `2020-01-${String(day).padStart(2, '0')}T01:00:00Z`,
        updates: [],
      });
    const existing = [
      old('imported', 1, 'import text: postmortem.md'),
      old('embedded', 2, 'embedded'),
      old('synced-old', 3, API),
      old('synced-mid', 4, `${API}; ${FEED}`),
      old('synced-new', 5, API),
    ];
    const result = mergeIncidents(existing, [], NOW, 3);
    expect(result.dropped).toBe(2);
    expect(result.incidents.map((entry) => entry.id).sort()).toEqual(['embedded', 'imported', 'synced-new']);
  });
});

describe('one incident from the API and the feed in the same sync', () => {
  it('stores each update once, with the API second and status, and starts at the API second', () => {
    const fromApi = incident('m2pt7wq0xy1z', {
      startedAt: '2025-02-03T01:12:26Z',
      updates: [
        { at: '2025-02-03T01:12:26Z', status: 'investigating', body: 'We are investigating.', components: [] },
        { at: '2025-02-03T01:58:07Z', status: 'investigating', body: 'Recovering.', components: [] },
      ],
    });
    const fromFeed = incident('m2pt7wq0xy1z', {
      source: FEED,
      startedAt: '2025-02-03T01:12:00Z',
      updates: [
        { at: '2025-02-03T01:12:00Z', status: 'investigating', body: 'We are investigating.', components: [] },
        { at: '2025-02-03T01:58:00Z', status: 'update', body: 'Recovering.', components: [] },
      ],
    });
    const result = mergeIncidents(
      [],
      [
        { source: FEED, rank: 2, listsAllOpen: false, incidents: [fromFeed] },
        { source: API, rank: 3, listsAllOpen: false, incidents: [fromApi] },
      ],
      NOW,
    );
    expect(result.incidents).toHaveLength(1);
    expect(result.incidents[0]?.startedAt).toBe('2025-02-03T01:12:26Z');
    expect(result.incidents[0]?.updates.map((update) => `${update.at} ${update.status}`)).toEqual([
      '2025-02-03T01:12:26Z investigating',
      '2025-02-03T01:58:07Z investigating',
    ]);
  });
});
