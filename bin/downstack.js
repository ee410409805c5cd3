#!/usr/bin/env node
// Entry point: the CLI is built by `npm install` through the `prepare` script: compiled to dist/, then bundled into a
// few files under dist/bundle/ (scripts/build-bundle.js), which is what runs.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // The version alone needs neither commander nor any command (a CI step may ask for it on every run): printed the
  // way commander prints it.
  const { VERSION } = await import('../dist/version.js');
  process.stdout.write(`${VERSION}\n`);
} else {
  const { main } = await import('../dist/bundle/cli.js');
  const code = await main(args);
  // Everything the command started has finished once main returns; what is left is for the output to reach its
  // reader. Leave then, rather than once the event loop is empty: an idle loop is when V8 finishes marking a large
  // heap, 7-9 ms after a 15,000-dependency check that has nothing left to do.
  const written = (stream) => new Promise((done) => stream.write('', () => done()));
  await Promise.all([written(process.stdout), written(process.stderr)]);
  process.exit(code);
}
