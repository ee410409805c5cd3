// Window bounds from the command line: durations back from now, ISO dates and times in UTC, nothing impossible.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../src/errors.js';
import { parseTimeArg } from '../src/time.js';

const NOW = new Date('2026-03-01T12:00:00Z');

describe('parseTimeArg', () => {
  it('reads durations back from now, dates at midnight UTC, and times without a zone as UTC', () => {
    expect(parseTimeArg('30d', NOW, '--since').toISOString()).toBe('2026-01-30T12:00:00.000Z');
    expect(parseTimeArg('2021-08-10', NOW, '--since').toISOString()).toBe('2021-08-10T00:00:00.000Z');
    expect(parseTimeArg('2021-08-10T19:00', NOW, '--since').toISOString()).toBe('2021-08-10T19:00:00.000Z');
    expect(parseTimeArg('2021-08-10T21:00+02:00', NOW, '--since').toISOString()).toBe('2021-08-10T19:00:00.000Z');
    expect(parseTimeArg('2024-02-29', NOW, '--since').toISOString()).toBe('2024-02-29T00:00:00.000Z');
  });

  it('refuses a date that does not exist instead of rolling it over into the next month', () => {
    for (const value of [
      '2021-02-30',
      '2023-02-29',
      '2021-04-31',
      '2021-13-01',
      '2021-08-10T24:30',
      '2021-08-10T19:60',
    ])
      expect(() => parseTimeArg(value, NOW, '--since')).toThrowError(
        new UsageError(`--since "${value}" is not a real date or time`),
      );
  });

  it('refuses a duration that reaches back before 1970, however large', () => {
    for (const value of ['99999999999999999999d', '100000000w', '60y'])
      expect(() => parseTimeArg(value, NOW, '--since')).toThrowError(/reaches back before 1970; give a date instead/);
    expect(parseTimeArg('50y', NOW, '--since').getUTCFullYear()).toBe(1976);
  });
});
