// `npm run bench`: every bench module in this folder, each printing figures as ratios to a same-run baseline.
import { readdirSync } from 'node:fs';

const skip = new Set(['run.js', 'harness.js']);
const only = process.argv[2];
for (const name of readdirSync(new URL('.', import.meta.url)).filter((file) => file.endsWith('.js') && !skip.has(file)).sort()) {
  if (only && !name.startsWith(only)) continue;
  const module = await import(`./${name}`);
  await module.run();
}
