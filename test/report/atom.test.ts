import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { Incident } from '../../src/model.js';
import { renderAtom, type FeedEntry } from '../../src/report/atom.js';
import { replayWindow } from '../../src/replay.js';
import { FIXTURES, NOW } from '../helpers/report-fixture.js';

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  isArray: (name) => name === 'entry' || name === 'link',
});

interface AtomEntry {
  id: string;
  title: { '#text': string };
  updated: string;
  link: Array<{ '@href': string; '@rel': string }>;
  content: { '#text': string };
}

/** Well-formed XML, plus what RFC 4287 requires of a feed and of each entry. */
function checkAtom(xml: string): { feed: Record<string, unknown>; entries: AtomEntry[] } {
  expect(XMLValidator.validate(xml)).toBe(true);
  const feed = (parser.parse(xml) as { feed: Record<string, unknown> }).feed;
  expect(feed['@xmlns']).toBe('http://www.w3.org/2005/Atom');
  expect(typeof feed.id).toBe('string');
  expect((feed.title as { '#text': string })['#text'].length).toBeGreaterThan(0);
  expect(feed.updated).toMatch(RFC3339);
  expect(feed.author).toEqual({ name: 'downstack' });
  const entries = (feed.entry ?? []) as AtomEntry[];
  for (const entry of entries) {
    expect(entry.id).toMatch(/^urn:downstack:incident:/);
    expect(entry.title['#text'].length).toBeGreaterThan(0);
    expect(entry.updated).toMatch(RFC3339);
    expect(entry.link[0]?.['@rel']).toBe('alternate');
    expect(entry.link[0]?.['@href']).toMatch(/^https:\/\//);
  }
  expect(new Set(entries.map((entry) => entry.id)).size).toBe(entries.length);
  return { feed, entries };
}

function incident(overrides: Partial<Incident>): Incident {
  return {
    provider: 'fx-stripe',
    id: 'stripe-2021-08-10-api',
    title: 'Elevated error rates on the API',
    url: 'https://status.stripe.com/incidents/stripe-2021-08-10-api',
    status: 'resolved',
    impact: 'major',
    components: ['API'],
    regions: [],
    startedAt: '2021-08-10T20:30Z',
    resolvedAt: '2021-08-10T21:05Z',
    updates: [],
    source: 'fixture',
    ...overrides,
  };
}

const entry = (value: Incident): FeedEntry => ({
  incident: value,
  providerName: 'Stripe',
  components: value.components,
  replay: replayWindow(value),
});

describe('Atom feed', () => {
  it('the golden stack feed is valid Atom with the newest change first', () => {
    const { feed, entries } = checkAtom(readFileSync(join(FIXTURES, 'golden', 'stack.atom.xml'), 'utf8'));
    expect(entries.map((e) => e.id)).toEqual([
      'urn:downstack:incident:fx-github:gh-2021-08-11-actions',
      'urn:downstack:incident:fx-stripe:stripe-2021-08-10-api',
      'urn:downstack:incident:fx-aws:aws-2021-08-10-s3-use1',
    ]);
    expect(feed.updated).toBe(entries[0]?.updated);
  });

  it('keeps hostile remote text valid XML and free of control sequences', () => {
    const hostile = incident({
      id: 'weird id/with spaces',
      title: 'Outage <script>alert(1)</script> & ]]> \u0000\u001b[31mred\u001b[0m \ud800 "quoted" \u202eevil',
      updates: [
        {
          at: '2021-08-10T20:31Z',
          status: 'investigating',
          body: 'Body with <b>markup</b>, a form feed \u000c and a bell \u0007.',
          components: [],
        },
      ],
    });
    const xml = renderAtom({ id: 'urn:downstack:feed:test', title: 'Test feed', now: NOW, entries: [entry(hostile)] });
    const { entries } = checkAtom(xml);
    expect(entries[0]?.title['#text']).toBe('Stripe: Outage <script>alert(1)</script> & ]]> red  "quoted" evil');
    expect(entries[0]?.id).toBe('urn:downstack:incident:fx-stripe:weird%20id%2Fwith%20spaces');
    expect(entries[0]?.content['#text']).toContain('Body with <b>markup</b>, a form feed  and a bell .');
    expect(xml).not.toMatch(/[\u0000-\u0008\u001b\u202e]/);
  });

  it('an empty feed is still valid and dated by the report clock', () => {
    const { feed, entries } = checkAtom(
      renderAtom({ id: 'urn:downstack:feed:provider:fx-stripe', title: 'Stripe incidents', now: NOW, entries: [] }),
    );
    expect(entries).toEqual([]);
    expect(feed.updated).toBe('2021-08-11T06:00:00Z');
  });

  it('writes RFC 3339 times with seconds even when the index left them out', () => {
    const { entries } = checkAtom(renderAtom({ id: 'urn:x', title: 't', now: NOW, entries: [entry(incident({}))] }));
    expect(entries[0]?.updated).toBe('2021-08-10T21:05:00Z');
  });
});
