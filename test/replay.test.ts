import { describe, expect, it } from 'vitest';
import type { Incident } from '../src/model.js';
import { mergeWindows, replayWindow } from '../src/replay.js';

const incident = (overrides: Partial<Incident>): Incident => ({
  provider: 'twingate',
  id: 'x',
  title: 't',
  url: '',
  status: 'resolved',
  impact: 'major',
  components: [],
  regions: [],
  startedAt: '2021-08-10T20:00:00Z',
  resolvedAt: '2021-08-10T21:24:00Z',
  updates: [],
  source: 'test',
  ...overrides,
});

describe('replay windows', () => {
  it('runs from the earliest credible start to the latest credible end, ignoring a late postmortem post', () => {
    const window = replayWindow(
      incident({
        impactWindow: { from: '2021-08-10T19:39:00Z', to: '2021-08-10T19:46:00Z', source: 'postmortem' },
        updates: [
          { at: '2021-08-10T20:00:00Z', status: 'monitoring', body: '', components: [] },
          { at: '2021-08-12T23:37:00Z', status: 'postmortem', body: '', components: [] },
        ],
      }),
    );
    expect(window).toEqual({ from: '2021-08-10T19:39:00Z', to: '2021-08-10T21:24:00Z' });
  });

  it('extends past the resolution when the stated impact ended later', () => {
    const window = replayWindow(
      incident({
        startedAt: '2025-03-21T20:10:00Z',
        resolvedAt: '2025-03-21T21:13:00Z',
        impactWindow: { from: '2025-03-21T21:10:00Z', to: '2025-03-21T21:41:00Z', source: 'postmortem' },
      }),
    );
    expect(window).toEqual({ from: '2025-03-21T20:10:00Z', to: '2025-03-21T21:41:00Z' });
  });

  it('leaves an open incident open', () => {
    expect(replayWindow(incident({ status: 'investigating', resolvedAt: null }))).toEqual({
      from: '2021-08-10T20:00:00Z',
      to: null,
    });
  });

  it('merges overlapping and touching windows across providers, and an open one swallows the rest', () => {
    const bands = mergeWindows([
      { provider: 'a', replay: { from: '2021-01-01T10:00:00Z', to: '2021-01-01T11:00:00Z' } },
      { provider: 'b', replay: { from: '2021-01-01T10:30:00Z', to: '2021-01-01T12:00:00Z' } },
      { provider: 'c', replay: { from: '2021-01-01T12:00:00Z', to: '2021-01-01T12:10:00Z' } },
      { provider: 'a', replay: { from: '2021-01-02T00:00:00Z', to: '2021-01-02T01:00:00Z' } },
    ]);
    expect(bands).toEqual([
      { from: '2021-01-01T10:00:00Z', to: '2021-01-01T12:10:00Z', providers: ['a', 'b', 'c'] },
      { from: '2021-01-02T00:00:00Z', to: '2021-01-02T01:00:00Z', providers: ['a'] },
    ]);
    expect(
      mergeWindows([
        { provider: 'a', replay: { from: '2021-01-01T10:00:00Z', to: null } },
        { provider: 'b', replay: { from: '2021-01-03T10:00:00Z', to: '2021-01-03T11:00:00Z' } },
      ]),
    ).toEqual([{ from: '2021-01-01T10:00:00Z', to: null, providers: ['a', 'b'] }]);
  });
});
