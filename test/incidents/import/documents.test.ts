// What import makes of documents in the shapes real pages publish: every format sync reads, times in every order,
// components and regions from the text, providers by weight, links, and entries read one by one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../src/catalog/loader.js';
import { ParseError } from '../../../src/errors.js';
import { finalizeDraft, readDocument } from '../../../src/incidents/import/index.js';
import type { InputProblem } from '../../../src/model.js';
import { replayWindow } from '../../../src/replay.js';
import { FIXTURES, fixture, importFixture, importText } from '../../helpers/import-fixture.js';

describe('times in every common order', () => {
  it('a maintenance announced days ahead states its window without a time-zone suspicion', () => {
    const [maintenance] = importFixture('feed/history-maintenance.atom');
    expect(maintenance?.impactWindow).toMatchObject({ from: '2025-05-28T16:30:00Z', to: '2025-05-29T16:30:00Z' });
    // Six days between the announcement and the start are a schedule: no clock is 145 hours off another.
    expect(maintenance?.conflicts?.some((conflict) => conflict.includes('wrong time zone'))).toBe(false);
    // Its replay is the work, not the week since the announcement.
    expect(replayWindow(maintenance!)).toEqual({ from: '2025-05-28T16:30:00Z', to: '2025-05-29T16:30:00Z' });
  });

  it('reads a date written after the times and a range that runs into the next day', () => {
    const [actions] = importFixture('feed/history-dates-after-times.atom');
    expect(actions).toMatchObject({
      id: 'dateafter001',
      startedAt: '2025-08-06T16:02:00Z',
      resolvedAt: '2025-08-07T00:30:00Z',
    });
    expect(actions?.impactWindow).toMatchObject({ from: '2025-08-06T15:05:00Z', to: '2025-08-07T00:14:00Z' });
    // The root-cause note posted in the resolution's minute does not reopen the incident, and the postmortem written
    // as several paragraphs stays one update.
    expect(actions?.status).toBe('resolved');
    expect(actions?.updates.find((update) => update.status === 'resolved')?.body).toMatch(/We scaled the runner pool/);
  });

  it('reads an impact that crosses a year end with each date after its time', () => {
    const [, newYear] = importFixture('feed/history-dates-after-times.atom');
    expect(newYear?.impactWindow).toMatchObject({ from: '2024-12-31T23:40:00Z', to: '2025-01-01T00:55:00Z' });
    expect(replayWindow(newYear!)).toEqual({ from: '2024-12-31T23:40:00Z', to: '2025-01-01T01:10:00Z' });
    expect(newYear?.resolvedAt).toBe('2025-01-01T01:10:00Z');
  });
});

describe('older records that keep every update in one body', () => {
  it('take the window from the text and the start from the shown time when the record contradicts itself', () => {
    const [incident] = importFixture('statuspage/incident-old-one-body.json');
    // Entered after the fact: started_at is when it was typed in, after the resolution it records.
    expect([incident?.startedAt, incident?.resolvedAt]).toEqual(['2020-03-31T08:00:00Z', '2020-03-31T08:00:00Z']);
    expect(incident?.impactWindow).toMatchObject({ from: '2020-03-31T08:02:00Z', to: '2020-03-31T08:43:00Z' });
    expect(replayWindow(incident!)).toEqual({ from: '2020-03-31T08:00:00Z', to: '2020-03-31T08:43:00Z' });
    expect(
      incident?.conflicts?.some((note) => note.includes('resolved at 2020-03-31 08:00 UTC, before it started')),
    ).toBe(true);
  });
});

describe('components and regions from the text', () => {
  it('names a catalog component the text names, with the sentence as evidence', () => {
    const [, newYear] = importFixture('feed/history-dates-after-times.atom');
    expect(newYear?.components).toEqual(['Webhooks']);
    expect(newYear?.evidence).toEqual([
      {
        kind: 'component',
        value: 'Webhooks',
        // The first place the text names it: the title.
        quote: 'Delayed webhook deliveries',
      },
    ]);
  });

  it('does not take an everyday word for a component, but does take it written as a name after a cue', () => {
    const quiet = importText(
      'a.md',
      '# GitHub outage\n- investigating Apr 03, 2023, 09:00 PM UTC\nWe are investigating issues with pushes.\n- resolved Apr 03, 2023, 09:40 PM UTC\nResolved.',
    ).incidents[0];
    expect(quiet?.components).toEqual([]);
    const named = importText(
      'b.md',
      '# GitHub outage\n- investigating Apr 03, 2023, 09:00 PM UTC\nWe are seeing degraded performance for Issues and delayed webhook deliveries.\n- resolved Apr 03, 2023, 09:40 PM UTC\nResolved.',
    ).incidents[0];
    expect(named?.components).toEqual(['Webhooks', 'Issues']);
  });

  it('reads regions by id and by place name for a provider that lists regions', () => {
    const [incident] = importFixture('text/org-log-aws-nlb.md');
    expect(incident?.regions).toEqual(['us-east-1']);
    const frankfurt = importText(
      'c.md',
      '# Amazon Web Services outage\n- investigating Apr 03, 2023, 09:00 PM UTC\nErrors for load balancers in Frankfurt.\n- resolved Apr 03, 2023, 09:40 PM UTC\nResolved.',
    ).incidents[0];
    expect(frankfurt?.regions).toEqual(['eu-central-1']);
    expect(frankfurt?.evidence).toContainEqual({
      kind: 'region',
      value: 'eu-central-1',
      quote: 'Errors for load balancers in Frankfurt.',
    });
  });
});

describe('provider by weight', () => {
  it("answers the provider an organisation's own log keeps naming, and says how it decided", () => {
    const document = fixture('text/org-log-aws-nlb.md');
    const { incidents, warnings } = importText(document.file, document.text);
    expect(incidents[0]).toMatchObject({ provider: 'aws', components: ['Elastic Load Balancing'] });
    expect(warnings.map((warning) => warning.message)).toContainEqual(
      expect.stringMatching(
        /provider aws \(inferred: \d+ mentions of AWS.*also mentioned: github 1\) — --provider to override$/,
      ),
    );
  });
});

describe('links', () => {
  it('keeps only http(s) links, and says which it dropped', () => {
    const json = importFixture('statuspage/incident-javascript-link.json');
    expect(json[0]?.url).toBe('');
    expect(json[0]?.conflicts).toContain('link "javascript:alert(1)" is not an http(s) URL; dropped');
    const text = fixture('text/links-not-http.md');
    const read = importText(text.file, text.text);
    expect(JSON.stringify(read.incidents)).not.toMatch(/javascript:|file:/);
  });
});

describe('feeds with a DTD', () => {
  it('reads a feed that carries a plain <!DOCTYPE>', () => {
    const [incident] = importFixture('feed/doctype.rss');
    expect(incident).toMatchObject({
      provider: 'northwind',
      id: 'https://status.northwind.example.com/incidents/nwdoctype01',
    });
    expect(incident?.impactWindow).toMatchObject({ from: '2024-03-01T09:20:00Z', to: '2024-03-01T09:55:00Z' });
  });

  it('refuses a feed that declares entities, in one located line', () => {
    const error = (() => {
      try {
        readDocument(fixture('bad/entity-bomb.rss'));
      } catch (caught) {
        return caught as ParseError;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ParseError);
    expect(error?.located).toBe(`${FIXTURES}bad/entity-bomb.rss:3: the feed declares XML entities (<!ENTITY); refused`);
  });
});

describe('every format sync reads', () => {
  const catalog = loadCatalog();
  const sync = join(FIXTURES, '..', 'sync');
  const cases: Array<[string, string, string]> = [
    ['statuspage/incidents-github.json', 'statuspage', 'github'],
    ['statuspage/history-github.rss', 'statuspage-feed', 'github'],
    ['incidentio/feed.atom', 'statuspage-feed', 'openai'],
    ['gcp/incidents.json', 'gcp', 'google-cloud'],
    ['aws/all.rss', 'aws-rss', 'aws'],
    ['aws/currentevents.json', 'aws', 'aws'],
    ['azure/feed.xml', 'azure', 'azure'],
    ['slack/history.json', 'slack', 'slack'],
    ['heroku/current-status-incident.json', 'heroku', 'heroku'],
    ['statusio/status-incident.json', 'statusio', 'gitlab'],
    ['firehydrant/payload.json', 'firehydrant', 'redis-cloud'],
  ];
  it.each(cases)('imports %s as %s, for %s', (path, format, provider) => {
    const document = { file: path, text: readFileSync(join(sync, path), 'utf8') };
    const read = readDocument(document);
    expect(read.format).toBe(format);
    expect(read.drafts.length).toBeGreaterThan(0);
    const warnings: InputProblem[] = [];
    const finished = read.drafts.map((draft) => finalizeDraft(draft, catalog, provider, warnings));
    for (const incident of finished) {
      expect(typeof incident).not.toBe('string');
      if (typeof incident === 'string') continue;
      const window = replayWindow(incident);
      expect(window.to === null || window.to >= window.from).toBe(true);
    }
  });

  it('tells a Google Cloud incidents.json apart from any other JSON and names its provider itself', () => {
    const [incident] = importFixture('platforms/gcp-incidents.json');
    expect(incident).toMatchObject({
      provider: 'gcp',
      id: 'kQxRtY3pW9s2mN4b7cDe',
      url: 'https://status.cloud.google.com/incidents/kQxRtY3pW9s2mN4b7cDe',
      startedAt: '2024-06-12T08:14:00Z',
      resolvedAt: '2024-06-12T10:02:00Z',
      regions: ['europe-west3'],
    });
  });
});
