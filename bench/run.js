// `npm run bench [name]`: every bench module in this folder (children live in child/), each printing figures as
// ratios to a baseline measured in the same run. Modules without run() are helpers of the others; terraform-equality.js
// needs the trees to compare, and terraform.js runs it on its corpus.
import { readdirSync } from 'node:fs';

const skip = new Set(['run.js', 'harness.js', 'terraform-equality.js']);
const only = process.argv[2];
for (const name of readdirSync(new URL('.', import.meta.url))
  .filter((file) => file.endsWith('.js') && !skip.has(file))
  .sort()) {
  if (only && !name.startsWith(only)) continue;
  const module = await import(`./${name}`);
  if (typeof module.run === 'function') await module.run();
}
