// One fresh process's first reading of some YAML files by one reader (`fast`: readYaml, which takes the fast block
// reader where it can; `library`: the yaml library alone), loading included. Prints the milliseconds.
import { readFileSync } from 'node:fs';

const [reader, list] = process.argv.slice(2);
const texts = JSON.parse(list).map((file) => [file, readFileSync(file, 'utf8')]);
const start = performance.now();
const { readYaml, readYamlWithLibrary } = await import('../../dist/parsers/config/yaml-nodes.js');
const read = reader === 'fast' ? readYaml : readYamlWithLibrary;
for (const [file, text] of texts) read(text, file);
process.stdout.write(String(performance.now() - start));
