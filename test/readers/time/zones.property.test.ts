// Round trip: any instant written the way a US status page writes it (with EDT/EST, PDT/PST) reads back to itself.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractTimes } from '../../../src/readers/time/extract.js';

function written(instant: Date, zone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      hour12: true,
      timeZoneName: 'short',
    })
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.month} ${parts.day}, ${parts.year}, ${parts.hour}:${parts.minute} ${parts.dayPeriod} ${parts.timeZoneName}`;
}

const instants = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2035-12-31T23:59:00Z'), noInvalidDate: true })
  .map((date) => new Date(Math.floor(date.getTime() / 60_000) * 60_000));

describe('zone round trip', () => {
  for (const zone of ['America/New_York', 'America/Los_Angeles', 'UTC']) {
    it(`reads back ${zone} stamps to the minute`, () => {
      fc.assert(
        fc.property(instants, (instant) => {
          const text = written(instant, zone);
          const [mention] = extractTimes(text).mentions;
          expect(mention?.at, text).toBe(instant.toISOString().replace('.000Z', 'Z'));
        }),
        { numRuns: 400 },
      );
    });
  }
});
