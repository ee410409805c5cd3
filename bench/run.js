// `npm run bench [name]`: every bench module in this folder (children live in child/), each printing figures as
// ratios to a baseline measured in the same run. terraform-equality.js needs the trees to compare; terraform.js runs it.
import { readdirSync } from 'node:fs';

const skip = new Set(['run.js', 'harness.js', 'terraform-equality.js']);
const only = process.argv[2];
for (const name of readdirSync(new URL('.', import.meta.url))
  .filter((file) => file.endsWith('.js') && !skip.has(file))
  .sort()) {
  if (only && !name.startsWith(only)) continue;
  const module = await import(`./${name}`);
  await module.run();
}
