#!/usr/bin/env node
// Entry point: the CLI is built by `npm install` through the `prepare` script: compiled to dist/, then bundled into a
// few files under dist/bundle/ (scripts/build-bundle.js), which is what runs. This file is CommonJS (bin/package.json
// says so, and the path stays the one npm has linked) so that `--version` alone never starts node's ES module loader
// (8 ms of a 40 ms run on Node 20); every other command imports the bundled CLI, an ES module.
'use strict';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // The version alone needs neither commander nor any command (a CI step may ask for it on every run): printed the
  // way commander prints it, from the package.json dist/version.js reads.
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  import('../dist/bundle/cli.js').then(async ({ main }) => {
    const code = await main(args);
    // Everything the command started has finished once main returns; what is left is for the output to reach its
    // reader. Leave then, rather than once the event loop is empty: an idle loop is when V8 finishes marking a large
    // heap, 7-9 ms after a 15,000-dependency check that has nothing left to do.
    const written = (stream) => new Promise((done) => stream.write('', () => done()));
    await Promise.all([written(process.stdout), written(process.stderr)]);
    process.exit(code);
  });
}
