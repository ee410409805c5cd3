// Child of bench/startup.js: what loading the CLI's code costs in a fresh process before any command runs, as JSON:
// the bundle's entry (all that --help needs of ours), commander, and the file every check loads (dist/bundle/check.js).
import { createRequire } from 'node:module';

const start = performance.now();
await import('../../dist/bundle/cli.js');
const cli = performance.now();
createRequire(import.meta.url)('commander');
const commander = performance.now();
await import('../../dist/bundle/check.js');
const check = performance.now();
process.stdout.write(
  JSON.stringify({ startMs: start, cliMs: cli - start, commanderMs: commander - cli, checkMs: check - commander }),
);
