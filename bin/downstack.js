#!/usr/bin/env node
// Entry point: the compiled CLI lives in dist/ (built by `npm install` through the `prepare` script).
import { main } from '../dist/cli.js';

process.exitCode = await main(process.argv.slice(2));
