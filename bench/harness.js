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

/**
 * The environment of a timed child process: this one's, with `extra`, and without NODE_EXTRA_CA_CERTS. Node 20 reads
 * and parses that file at every start, TLS or not (45–55 ms here, where it names the system CA bundle): the
 * same cost on both sides of a ratio to bare node would make every start-up ratio look better than it is.
 */
export function childEnv(extra = {}) {
  const { NODE_EXTRA_CA_CERTS: _, ...env } = process.env;
  return { ...env, ...extra };
}
