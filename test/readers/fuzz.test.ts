// Every reader on arbitrary and mangled input: drafts or a located error, never a crash, never an inverted window.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.js';
import { finishDraft } from '../../src/readers/finish.js';
import { type FormatName, READERS } from '../../src/readers/registry.js';
import { replayWindow } from '../../src/replay.js';

const seeds: Record<FormatName, string> = {
  statuspage:
    '{"page":{"name":"X","url":"https://status.x.example"},"incidents":[{"id":"abc","name":"Errors","status":"resolved","started_at":"2024-01-01T10:00:00Z","resolved_at":"2024-01-01T11:00:00Z","impact":"minor","incident_updates":[{"status":"resolved","body":"Began at 09:50 UTC.","created_at":"2024-01-01T11:00:00Z"}]}]}',
  'statuspage-feed':
    '<feed><title>X</title><entry><published>2024-01-01T11:00:00Z</published><link href="https://s.x/incidents/abc"/><title>E</title><content type="html">&lt;p&gt;&lt;small&gt;Jan 1, 11:00 UTC&lt;/small&gt;&lt;br&gt;&lt;strong&gt;Resolved&lt;/strong&gt; - from 09:50 to 10:40 UTC&lt;/p&gt;</content></entry></feed>',
  incidentio:
    '{"summary":{"components":[],"ongoing_incidents":[{"id":"01H","name":"E","status":"investigating","published_at":"2024-01-01T10:00:00Z","updates":[]}]}}',
  instatus:
    '{"page":{"name":"X"},"activeIncidents":[{"name":"E","started":"2024-01-01T10:00:00Z","status":"INVESTIGATING","url":"https://x/incident/abc"}]}',
  betterstack:
    '{"data":{"type":"status_page"},"included":[{"id":"1","type":"status_report","attributes":{"title":"E","starts_at":"2024-01-01T10:00:00Z","aggregate_state":"downtime"}}]}',
  statusio:
    '{"result":{"status":[],"incidents":[{"_id":"a1","name":"E","datetime_open":"2024-01-01T10:00:00Z","messages":[{"details":"x","state":100,"status":500,"datetime":"2024-01-01T10:00:00Z"}]}]}}',
  gcp: '[{"id":"g1","begin":"2024-01-01T10:00:00+00:00","end":"2024-01-01T11:00:00+00:00","external_desc":"E","updates":[{"when":"2024-01-01T10:30:00+00:00","text":"Began 09:40 US/Pacific","status":"AVAILABLE"}],"uri":"incidents/g1"}]',
  aws: '[{"date":"1704103200","arn":"arn:aws:health:us-east-1::event/EC2/X/Y","status":"3","service":"ec2-us-east-1","summary":"E","event_log":[{"status":3,"timestamp":1704103200,"message":"x"}]}]',
  'aws-rss':
    '<rss><channel><title>Amazon Web Services Service Status</title><item><title>Service disruption: E</title><pubDate>Mon, 01 Jan 2024 10:00:00 PST</pubDate><guid>http://status.aws.amazon.com/#ec2-us-east-1_1704103200</guid><description>x</description></item></channel></rss>',
  'aws-status-data':
    '{"current":[],"archive":[{"service_name":"Amazon EC2 (N. Virginia)","summary":"[RESOLVED] E","date":"1704103200","status":"2","description":"<div><span class=\\"yellowfg\\"> 2:00 AM PST</span>&nbsp;x</div><div><span class=\\"yellowfg\\"> 3:10 AM PST</span>&nbsp;Between 1:40 AM and 3:00 AM PST, errors.</div>","service":"ec2-us-east-1"}]}',
  azure:
    '<rss><channel><title>Azure Status</title><item><title>E </title><guid>slug</guid><pubDate>Mon, 01 Jan 2024 10:00:00 Z</pubDate><category>West US 2</category><description>x</description></item></channel></rss>',
  slack:
    '[{"id":1,"date_created":"2024-01-01T10:00:00-07:00","date_updated":"2024-01-01T11:00:00-07:00","title":"E","type":"incident","status":"resolved","services":["Messaging"],"notes":[{"body":"x","date_created":"2024-01-01T10:00:00-07:00"}]}]',
  heroku:
    '{"status":[],"incidents":[{"id":1,"created_at":"2024-01-01T10:00:00Z","title":"E","state":"resolved","resolved_at":"2024-01-01T11:00:00Z","updates":[]}],"scheduled":[]}',
  firehydrant:
    '{"config":{"companyName":"X"},"conditions":{},"components":[],"incidents":[{"id":"f1","title":"E","timestamps":{"started":"2024-01-01T10:00:00Z","resolved":"2024-01-01T11:00:00Z"},"timeline":[{"time":"2024-02-01T00:00:00Z","details":{"note":"**Resolved** — fixed"},"occurredAt":"2024-01-01T11:00:00Z"}],"severitySlug":"SEV2"}]}',
  feed: '<rss><channel><title>X</title><item><title>E</title><pubDate>Mon, 01 Jan 2024 10:00:00 +0000</pubDate><description>resolved</description></item></channel></rss>',
  incidentlib:
    '{"id":"IL-1","org":"X","date":"2024-01-01","title":{"en":"E"},"summary":{"en":"Errors between 09:50 and 10:40 UTC."}}',
  text: '# X outage\n- investigating Jan 01, 2024, 10:00 AM UTC\nErrors began at 09:50 UTC.\n- resolved Jan 01, 2024, 11:00 AM UTC\nResolved.',
};

/** A seed with pieces cut out, repeated, or replaced by hostile characters. */
const mangled = (seed: string) =>
  fc
    .tuple(
      fc.nat(seed.length),
      fc.nat(seed.length),
      fc.string({ maxLength: 40 }),
      fc.constantFrom('', '<', '[', '"', '{', '&', ':', '-', '\u0000'),
    )
    .map(
      ([a, b, insert, noise]) =>
        `${seed.slice(0, Math.min(a, b))}${insert}${noise.repeat(20)}${seed.slice(Math.max(a, b))}`,
    );

describe('every reader, fuzzed', () => {
  for (const [format, reader] of Object.entries(READERS) as Array<[FormatName, (typeof READERS)[FormatName]]>) {
    it(`${format}: drafts or a located error, and never an inverted window`, () => {
      fc.assert(
        fc.property(fc.oneof(mangled(seeds[format]), fc.string({ maxLength: 300 })), (text) => {
          let result: ReturnType<typeof reader>;
          try {
            result = reader(text, { source: 'fuzz.txt', componentNames: new Map() });
          } catch (error) {
            expect(error).toBeInstanceOf(ParseError);
            expect((error as ParseError).located.startsWith('fuzz.txt')).toBe(true);
            return;
          }
          for (const draft of result.drafts) {
            const incident = finishDraft(draft, { provider: 'p', source: 'fuzz.txt' });
            if (!('provider' in incident)) continue;
            expect(incident.resolvedAt === null || incident.resolvedAt >= incident.startedAt).toBe(true);
            if (incident.impactWindow) expect(incident.impactWindow.from <= incident.impactWindow.to).toBe(true);
            const window = replayWindow(incident);
            expect(window.to === null || window.from <= window.to).toBe(true);
          }
        }),
        { numRuns: 150 },
      );
    });
  }
});
