// The floor for a lockfile: a node process that reads a JSON file and JSON.parses it, and does nothing else. For a
// JSON lockfile that is the lockfile itself; for YAML and yarn.lock formats the bench hands over the same data
// written as JSON (there is no faster bare reading of a file than JSON.parse).
import { readFileSync } from 'node:fs';

JSON.parse(readFileSync(process.argv[2], 'utf8'));
