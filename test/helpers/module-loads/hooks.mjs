// Module-load hook (see register.mjs): reports each module as it is loaded, then loads it unchanged.
import { writeSync } from 'node:fs';

export async function load(url, context, next) {
  writeSync(2, `loaded ${url}\n`);
  return next(url, context);
}
