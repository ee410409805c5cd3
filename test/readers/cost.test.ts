// Hostile input costs linear time: the time at 4n is compared with the time at n (never with a clock budget).
import { describe, expect, it } from 'vitest';
import { readDocument } from '../../src/incidents/import/index.js';
import { htmlToText } from '../../src/readers/text/html.js';

/** Best of three runs, so one pause of a shared machine (or a garbage collection) does not decide. */
function timeOf(work: () => void): number {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round++) {
    const start = performance.now();
    work();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/**
 * Linear growth makes 4x the input cost about 4x the time (5x with the garbage collector's share on large strings);
 * quadratic growth makes it 16x. The bound sits between, with room for a loaded machine; sizes are large enough that
 * the smaller run takes tens of milliseconds, so timer noise does not decide either.
 */
function expectLinear(make: (size: number) => () => void, size = 400_000): void {
  make(size / 4)();
  const small = timeOf(make(size));
  const large = timeOf(make(size * 4));
  expect(large / Math.max(small, 5)).toBeLessThan(12);
}

const readQuietly = (text: string) => () => {
  try {
    readDocument({ file: 'hostile.md', text });
  } catch {
    // A located refusal is a fine answer; only the time it takes matters here.
  }
};

describe('hostile text costs linear time', () => {
  it('HTML to text over runs of "<", unterminated comments and scripts, and deep unclosed tags', () => {
    expectLinear((n) => () => htmlToText('<'.repeat(n)));
    expectLinear((n) => () => htmlToText('<!--'.repeat(n / 4)));
    expectLinear((n) => () => htmlToText('<p>x</p><script>'.repeat(n / 16)));
    expectLinear((n) => () => htmlToText('<small>'.repeat(n / 7)));
  });

  it('text import after "affected:", "**components affected**", and over runs of "[" and "**"', () => {
    const head = 'Northwind Platform outage 2022-01-01 10:00 UTC\n';
    expectLinear((n) => readQuietly(`${head}Components affected:${' '.repeat(n)}x`));
    expectLinear((n) => readQuietly(`${head}**components affected**${' '.repeat(n)}x`));
    expectLinear((n) => readQuietly(`${head}This incident affected:${' '.repeat(n)}x`));
    expectLinear((n) => readQuietly(`${head}${'['.repeat(n)}`));
    expectLinear((n) => readQuietly(`${head}${'**a'.repeat(n / 3)}`));
  });

  it('text and feeds dense with times and stamps', () => {
    expectLinear(
      (n) => readQuietly(`Outage 2022-01-01 10:00 UTC began\n${'12:00 UTC began 13:00 '.repeat(n / 22)}`),
      200_000,
    );
    expectLinear((n) =>
      readQuietly(
        `<feed><entry><published>2022-01-01T00:00:00Z</published><title>x</title><content type="html">${'&lt;small&gt;'.repeat(n / 13)}</content></entry></feed>`,
      ),
    );
  });
});
