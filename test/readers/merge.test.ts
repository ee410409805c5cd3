// The one merge, on the shapes a Statuspage API and its history feed give for the same incident.
import { describe, expect, it } from 'vitest';
import { finishDraft } from '../../src/readers/finish.js';
import { parseStatuspage } from '../../src/readers/formats/statuspage.js';
import { parseStatuspageFeed } from '../../src/readers/formats/statuspage-feed.js';
import { combineIncidents, identifiesOne, isSameIncident, sharedUrlsOf } from '../../src/readers/merge.js';
import type { Reader } from '../../src/readers/types.js';
import type { Incident } from '../../src/model.js';

const page = 'https://www.githubstatus.com';
const read = (reader: Reader, text: string, source: string): Incident => {
  const [draft] = reader(text, { source, pageUrl: page, componentNames: new Map() }).drafts;
  const finished = finishDraft(draft!, { provider: 'github', source, pageUrl: page });
  if (!('provider' in finished)) throw new Error(finished.message);
  return finished;
};

const api = JSON.stringify({
  page: { id: 'kctbh9vrtdwd', name: 'GitHub', url: page },
  incidents: [
    {
      id: 'm2pt7wq0xy1z',
      name: 'Disruption with some GitHub services',
      status: 'resolved',
      created_at: '2025-02-03T01:12:26.114Z',
      started_at: '2025-02-03T01:12:26.109Z',
      resolved_at: '2025-02-03T02:40:51.009Z',
      impact: 'minor',
      shortlink: 'https://stspg.io/abcd',
      incident_updates: [
        {
          id: 'c',
          status: 'resolved',
          body: 'This incident has been resolved.',
          created_at: '2025-02-03T02:40:51.009Z',
          display_at: '2025-02-03T02:40:51.009Z',
          affected_components: null,
        },
        {
          id: 'b',
          status: 'investigating',
          body: 'We are seeing recovery.',
          created_at: '2025-02-03T01:58:07.500Z',
          display_at: '2025-02-03T01:58:07.500Z',
          affected_components: null,
        },
        {
          id: 'a',
          status: 'investigating',
          body: 'We are investigating reports of degraded performance.',
          created_at: '2025-02-03T01:12:26.300Z',
          display_at: '2025-02-03T01:12:26.300Z',
          affected_components: [
            { code: '4230lsnqdsld', name: 'Webhooks', old_status: 'operational', new_status: 'degraded_performance' },
          ],
        },
      ],
      components: [],
    },
  ],
});
const stamp = (month: string, day: string, time: string) =>
  `&lt;small&gt;${month} &lt;var data-var='date'&gt;${day}&lt;/var&gt;, &lt;var data-var='time'&gt;${time}&lt;/var&gt; UTC&lt;/small&gt;&lt;br&gt;`;
const feed = `<?xml version="1.0" encoding="UTF-8"?>
<feed xml:lang="en-US" xmlns="http://www.w3.org/2005/Atom">
  <title>GitHub Status - Incident History</title>
  <link rel="alternate" type="text/html" href="${page}"/>
  <entry>
    <id>tag:www.githubstatus.com,2005:Incident/80000001</id>
    <published>2025-02-03T02:40:51Z</published>
    <updated>2025-02-03T02:40:51Z</updated>
    <link rel="alternate" type="text/html" href="${page}/incidents/m2pt7wq0xy1z"/>
    <title>Disruption with some GitHub services</title>
    <content type="html">&lt;p&gt;${stamp('Feb', ' 3', '02:40')}&lt;strong&gt;Resolved&lt;/strong&gt; - This incident has been resolved.&lt;/p&gt;&lt;p&gt;${stamp('Feb', ' 3', '01:58')}&lt;strong&gt;Update&lt;/strong&gt; - We are seeing recovery.&lt;/p&gt;&lt;p&gt;${stamp('Feb', ' 3', '01:12')}&lt;strong&gt;Investigating&lt;/strong&gt; - We are investigating reports of degraded performance.&lt;/p&gt;</content>
  </entry>
</feed>`;

describe('one incident from the API and the feed', () => {
  it('is one record with each update once, the precise times and the specific statuses kept', () => {
    const fromApi = read(parseStatuspage, api, `${page}/api/v2/incidents.json`);
    const fromFeed = read(parseStatuspageFeed, feed, `${page}/history.atom`);
    expect(isSameIncident(fromApi, fromFeed)).toBe(true);
    for (const merged of [combineIncidents(fromApi, fromFeed), combineIncidents(fromFeed, fromApi, fromApi.id)]) {
      expect(merged.startedAt).toBe('2025-02-03T01:12:26Z');
      expect(merged.resolvedAt).toBe('2025-02-03T02:40:51Z');
      expect(merged.updates.map((update) => `${update.at} ${update.status}`)).toEqual([
        '2025-02-03T01:12:26Z investigating',
        '2025-02-03T01:58:07Z investigating',
        '2025-02-03T02:40:51Z resolved',
      ]);
    }
  });
});

describe('merging by link', () => {
  const entry = (id: string, title: string, day: number, url: string): Incident => ({
    provider: 'northwind',
    id,
    title,
    url,
    status: 'resolved',
    impact: 'minor',
    components: [],
    regions: [],
    startedAt: `2024-03-0${day}T10:00:00Z`,
    resolvedAt: `2024-03-0${day}T11:00:00Z`,
    updates: [],
    source: 'import feed: history.rss',
  });

  it('merges by a link only when it names one incident', () => {
    expect(identifiesOne('https://status.example.com/incidents/q5bb6tbftgrm')).toBe(true);
    expect(identifiesOne('https://status.example.com/history')).toBe(false);
    expect(identifiesOne('https://status.example.com/')).toBe(false);
    const a = entry('a', 'Ingress errors', 1, 'https://status.example.com/history');
    const b = entry('b', 'Login failures', 5, 'https://status.example.com/history');
    expect(isSameIncident(a, b)).toBe(false);
    const c = entry('c', 'Ingress errors', 1, 'https://status.example.com/incidents/q5bb6tbftgrm');
    const d = entry('d', 'Other words', 5, 'https://status.example.com/incidents/q5bb6tbftgrm');
    expect(isSameIncident(c, d)).toBe(true);
    // Links to two incident pages are two incidents, even when an open one overlaps everything after it.
    const open = {
      ...entry('e', 'Incident with Actions', 1, 'https://status.example.com/incidents/aaaaaaaaaaaa'),
      resolvedAt: null,
    };
    const later = entry('f', 'Incident with Actions', 5, 'https://status.example.com/incidents/bbbbbbbbbbbb');
    expect(isSameIncident(open, later)).toBe(false);
    // The same incident link on two different entries of one batch names a page after all.
    expect(isSameIncident(c, d, sharedUrlsOf([c, d]))).toBe(false);
  });
});
