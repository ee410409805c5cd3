import { describe, expect, it } from 'vitest';
import { extractDurations, parseCompactDuration } from '../../../src/readers/time/durations.js';
import { extractTimes } from '../../../src/readers/time/extract.js';

const at = (text: string, options = {}) => extractTimes(text, options).mentions.map((mention) => mention.at);

describe('extractTimes', () => {
  it('reads status-page stamps with their zone', () => {
    expect(at('monitoring Aug 10, 2021, 8:00 PM UTC')).toEqual(['2021-08-10T20:00:00Z']);
    expect(at('resolved Sep 08, 2020, 01:01 PM UTC')).toEqual(['2020-09-08T13:01:00Z']);
    expect(at('resolved 2016-06-28 16:00 UTC')).toEqual(['2016-06-28T16:00:00Z']);
    expect(at('at 2019-02-20T12:00:19.418-06:00')).toEqual(['2019-02-20T18:00:19Z']);
    expect(at('on 21 March 2025 at 21:10 GMT')).toEqual(['2025-03-21T21:10:00Z']);
    expect(at('Jun 3, 2024 14:00 CEST')).toEqual(['2024-06-03T12:00:00Z']);
    expect(at('Jun 3, 2024 14:00 BST')).toEqual(['2024-06-03T13:00:00Z']);
  });

  it('reads "ET" and "PT" as daylight or standard time depending on the date', () => {
    expect(at('Sep 08, 2020 8:24AM ET')).toEqual(['2020-09-08T12:24:00Z']);
    expect(at('Jan 08, 2020 8:24AM ET')).toEqual(['2020-01-08T13:24:00Z']);
    expect(at('Jul 15, 2021 10:00 PT; Dec 1, 2021 10:00 PT')).toEqual(['2021-07-15T17:00:00Z', '2021-12-01T18:00:00Z']);
    // Spring forward in New York: 01:59 EST is followed by 03:00 EDT.
    expect(at('Mar 14, 2021 1:59 AM ET; Mar 14, 2021 3:00 AM ET')).toEqual([
      '2021-03-14T06:59:00Z',
      '2021-03-14T07:00:00Z',
    ]);
    // Fall back: 01:30 happens twice; the first (EDT) reading is taken.
    expect(at('Nov 7, 2021 1:30 AM ET')).toEqual(['2021-11-07T05:30:00Z']);
  });

  it('keeps an abbreviation that does not fit its date as written and says so', () => {
    const extraction = extractTimes('Jul 4, 2021 10:00 EST');
    expect(extraction.mentions[0]?.at).toBe('2021-07-04T15:00:00Z');
    expect(extraction.notes[0]).toMatch(/EST is written for a date when America\/New_York was on UTC-4/);
  });

  it('links ranges and shares am/pm and zone between their ends', () => {
    const extraction = extractTimes(
      'At 8:57-9:00am EDT connections dropped. From around 9:30am-10:00 EDT it flickered.',
      { anchorMs: Date.parse('2016-06-28T16:00:00Z') },
    );
    expect(extraction.ranges.map((range) => [range.from.at, range.to.at])).toEqual([
      ['2016-06-28T12:57:00Z', '2016-06-28T13:00:00Z'],
      ['2016-06-28T13:30:00Z', '2016-06-28T14:00:00Z'],
    ]);
    const verbs = extractTimes('The issue began at 19:39 UTC and continued until 19:47 UTC.', {
      anchorMs: Date.parse('2021-08-10T20:00:00Z'),
    });
    expect(verbs.ranges).toHaveLength(1);
    const korean = extractTimes('영향 시간을 21:10 UTC 부터 21:41 UTC 까지로 적었다.', {
      anchorDate: { y: 2025, m: 3, d: 21 },
    });
    expect(korean.ranges.map((range) => [range.from.at, range.to.at])).toEqual([
      ['2025-03-21T21:10:00Z', '2025-03-21T21:41:00Z'],
    ]);
  });

  it('crosses midnight in a late-evening range and reports one that runs backwards', () => {
    const late = extractTimes('from 23:50 to 00:20 UTC', { anchorDate: { y: 2022, m: 12, d: 31 } });
    expect(late.ranges.map((range) => [range.from.at, range.to.at])).toEqual([
      ['2022-12-31T23:50:00Z', '2023-01-01T00:20:00Z'],
    ]);
    const backwards = extractTimes('between 21:41 and 21:10 UTC', { anchorDate: { y: 2025, m: 3, d: 21 } });
    expect(backwards.ranges).toEqual([]);
    expect(backwards.problems[0]?.message).toBe('"21:41 and 21:10 UTC" ends before it starts');
  });

  it('inherits the zone of earlier times, and assumes UTC (flagged) when there is none', () => {
    const inherited = extractTimes('Dropped at 9:00am EDT; back at 10:14am.', {
      anchorMs: Date.parse('2016-06-28T16:00:00Z'),
    });
    expect(inherited.mentions.map((mention) => [mention.at, mention.zoneFrom])).toEqual([
      ['2016-06-28T13:00:00Z', 'written'],
      ['2016-06-28T14:14:00Z', 'inherited'],
    ]);
    const assumed = extractTimes('First detected 2022-07-11 09:33');
    expect(assumed.mentions.map((mention) => [mention.at, mention.zoneFrom])).toEqual([
      ['2022-07-11T09:33:00Z', 'assumed'],
    ]);
  });

  it('infers the year of "Dec 26, 14:45 UTC" from the feed date, across a year boundary', () => {
    expect(at('Dec 26, 14:45 UTC', { referenceMs: Date.parse('2023-01-02T09:30:00Z') })).toEqual([
      '2022-12-26T14:45:00Z',
    ]);
    expect(at('Jan  1, 00:40 UTC', { referenceMs: Date.parse('2022-12-31T23:55:00Z') })).toEqual([
      '2023-01-01T00:40:00Z',
    ]);
    expect(at('Mar 16, 19:46 UTC', { referenceMs: Date.parse('2022-03-16T19:46:08Z') })).toEqual([
      '2022-03-16T19:46:00Z',
    ]);
  });

  it('places undated times on the day nearest the anchor, and drops them when there is no anchor', () => {
    expect(at('at 23:55 UTC', { anchorMs: Date.parse('2021-08-11T00:05:00Z') })).toEqual(['2021-08-10T23:55:00Z']);
    expect(at('at 23:55 UTC')).toEqual([]);
  });

  it('does not read versions, ratios, percentages or offsets in ranges as times', () => {
    expect(at('version 1.2.3, 99.9% uptime, 24/7, 3 of 4 nodes', { anchorDate: { y: 2021, m: 1, d: 1 } })).toEqual([]);
    expect(
      extractTimes('9:30am-10:00 EDT', { anchorDate: { y: 2016, m: 6, d: 28 } }).mentions.map(
        (mention) => mention.zone,
      ),
    ).toEqual(['EDT', 'EDT']);
  });
});

describe('durations', () => {
  it('finds compact and cued durations, not every number of minutes in prose', () => {
    const found = extractDurations(
      'after the 1h 39m it lasted. lasting 1h 54m. Time to repair: 6h 27m. for roughly 2 hours. Over the next 26 minutes. over the next 1-2 hours.',
    );
    expect(found.map((duration) => [duration.minutes, duration.approximate])).toEqual([
      [99, false],
      [114, false],
      [387, false],
      [120, true],
    ]);
  });

  it('parses incidentlib timeline values', () => {
    expect(parseCompactDuration('31m')).toBe(31);
    expect(parseCompactDuration('1h 39m')).toBe(99);
    expect(parseCompactDuration('2d 1h')).toBe(2940);
    expect(parseCompactDuration('soon')).toBeUndefined();
  });
});

describe('times in every common order', () => {
  const anchor = { anchorMs: Date.parse('2025-08-06T16:02:00Z') };
  const ranges = (text: string, options = {}) =>
    extractTimes(text, options).ranges.map((range) => [range.from.at, range.to.at]);

  it('reads a date written after the time', () => {
    expect(at('Impact began at 23:40 UTC on 31 December 2024 and ended at 00:55 UTC on 1 January 2025.')).toEqual([
      '2024-12-31T23:40:00Z',
      '2025-01-01T00:55:00Z',
    ]);
    expect(at('fixed at 09:15 UTC, Monday 7 August 2023')).toEqual(['2023-08-07T09:15:00Z']);
    expect(ranges('On August 6, 2025, between 15:05 UTC and 00:14 UTC on August 7, jobs queued.', anchor)).toEqual([
      ['2025-08-06T15:05:00Z', '2025-08-07T00:14:00Z'],
    ]);
  });

  it('reads each time in brackets after its date, and the two as one range', () => {
    // As GitHub's monthly availability reports write a multi-day window.
    expect(
      ranges('Between April 15th, 2024 (09:45 UTC) and April 18th, 2024 (19:10 UTC), completions saw errors.'),
    ).toEqual([['2024-04-15T09:45:00Z', '2024-04-18T19:10:00Z']]);
    expect(at('The fix reached every region on May 2, 2024 (14:05 UTC).')).toEqual(['2024-05-02T14:05:00Z']);
  });

  it('gives a range start the date of its end when only the end carries one', () => {
    expect(ranges('between 23:50 and 00:20 UTC on January 1, 2023')).toEqual([
      ['2022-12-31T23:50:00Z', '2023-01-01T00:20:00Z'],
    ]);
  });

  it('reads "on the 7th", weekdays and "the next day" next to the anchor', () => {
    expect(at('It started on the 7th at 10:00 UTC.', anchor)).toEqual(['2025-08-07T10:00:00Z']);
    expect(at('On Tuesday at 14:00 UTC the queue backed up.', anchor)).toEqual(['2025-08-05T14:00:00Z']);
    expect(at('Errors began at 22:10 UTC and lasted until 00:55 UTC the next day.', anchor)).toEqual([
      '2025-08-06T22:10:00Z',
      '2025-08-07T00:55:00Z',
    ]);
  });

  it('reads "beginning at" as the start of impact, as Google Cloud writes it', async () => {
    const { readProse } = await import('../../../src/readers/text/prose.js');
    const reading = readProse(
      'We are experiencing an issue with Apigee beginning at Tuesday, 2025-03-04 01:25 US/Pacific.',
      {},
    );
    expect(reading.claims).toEqual([expect.objectContaining({ from: '2025-03-04T09:25:00Z', kind: 'impact' })]);
  });

  it('reads IANA zone names as Google Cloud writes them, daylight saving by date', () => {
    expect(at('resolved as of Wednesday, 2025-02-19 23:20 US/Pacific')).toEqual(['2025-02-20T07:20:00Z']);
    expect(at('resolved as of Tuesday, 2024-07-02 10:15 US/Pacific')).toEqual(['2024-07-02T17:15:00Z']);
  });

  it('reads 12-hour clocks and ISO times with offsets', () => {
    expect(
      at('from 11:50 p.m. to 12:20 a.m. EST on Jan 3, 2024', { anchorMs: Date.parse('2024-01-03T05:00:00Z') }),
    ).toEqual(['2024-01-03T04:50:00Z', '2024-01-03T05:20:00Z']);
    expect(at('at 2024-03-10T01:30:00+05:30')).toEqual(['2024-03-09T20:00:00Z']);
  });

  it('reads a range that runs back on the clock across midnight, and notes one that cannot be a night', () => {
    expect(ranges('between 16:10 UTC and 00:05 UTC', anchor)).toEqual([
      ['2025-08-06T16:10:00Z', '2025-08-07T00:05:00Z'],
    ]);
    const backwards = extractTimes('Requests failed between 21:41 and 21:10 UTC.', anchor);
    expect(backwards.ranges).toEqual([]);
    expect(backwards.problems.map((problem) => problem.message)).toEqual([
      '"21:41 and 21:10 UTC" ends before it starts',
    ]);
  });

  it('reads at most a bounded number of times from one text', () => {
    const extraction = extractTimes(`${'12:00 UTC, '.repeat(3000)}`, anchor);
    expect(extraction.mentions).toHaveLength(2000);
    expect(extraction.notes[0]).toMatch(/more than 2000 times; only the first 2000 were read/);
  });
});
