// Cost tests compare sizes, never seconds: the work at n and at 4n, each the best of a few runs (the machine is
// shared), and the ratio tells linear (about 4) from quadratic (about 16) whatever the machine's speed.

/** Time of `work(size)` at `n` and `4n`, best of `runs` each, as the ratio of the two. */
export async function growthRatio(work: (size: number) => unknown, n: number, runs = 5): Promise<number> {
  const best = async (size: number) => {
    let fastest = Number.POSITIVE_INFINITY;
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      await work(size);
      fastest = Math.min(fastest, performance.now() - started);
    }
    return fastest;
  };
  // Warm-up at both sizes: compiled code and a grown heap, so neither measurement pays for them alone.
  await work(n);
  await work(4 * n);
  const small = await best(n);
  const large = await best(4 * n);
  return large / Math.max(small, 0.001);
}

/**
 * A generous bound for linear growth at 4× the size: linear code measures 4 to 8 here (garbage collection grows
 * with the heap, and the machine is shared), quadratic code 16 and more (the old via chains: 25). The same bound
 * as the readers' cost tests (test/readers/cost.test.ts).
 */
export const LINEAR_AT_4X = 12;
