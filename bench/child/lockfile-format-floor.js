// A second, looser floor for a lockfile that is not JSON: a node process that reads it and parses it with the parser
// everyone uses for its format (bench/lockfile-format.js), and does nothing else. bench/startup.js prints the check's
// ratio to it for information only; the goal stays the ratio to the strict floor (lockfile-floor.js: JSON.parse of the
// same data).
import { readFileSync } from 'node:fs';
import { parseWithItsFormat } from '../lockfile-format.js';

const path = process.argv[2];
parseWithItsFormat(path, readFileSync(path, 'utf8'));
