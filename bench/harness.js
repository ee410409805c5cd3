// Shared timing helpers: every figure is printed next to a baseline measured in the same run, as a ratio,
// because absolute times on a 2-core shared machine mean little.
import { performance } from 'node:perf_hooks';

/** Median wall time in ms of `runs` calls (after one warm-up call). */
export async function median(fn, runs = 7) {
  await fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

export function report(name, ms, baselineName, baselineMs, note = '') {
  const ratio = ms / baselineMs;
  const line = `${name.padEnd(44)} ${ms.toFixed(1).padStart(9)} ms   ${ratio.toFixed(2).padStart(6)}× ${baselineName}${note ? `   ${note}` : ''}`;
  console.log(line);
  return ratio;
}
