// Proof that the shallow reader changes nothing: on every Terraform tree under a directory, (1) the dependencies
// (and problems) a scan gives with the shallow reader equal those with every body and value sent through the full
// parser, and (2) every top-level attribute of every block, nested blocks included, read shallowly equals the full
// parse of that block (an OPAQUE value must be one that resolves to nothing). Slow: it runs the full parser on
// everything. `node bench/terraform-equality.js DIR…` or `--corpus ROOT` (every subdirectory of ROOT a tree);
// bench/terraform.js runs it on its corpus.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = new URL('../dist/', import.meta.url);
const load = (path) => import(new URL(path, dist).href);

/** Every Terraform file under `dir`, the way the scan walks (no .git, .terraform, node_modules). */
export function terraformFiles(dir) {
  const out = [];
  const visit = (current) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) {
        if (!['.git', '.terraform', 'node_modules'].includes(entry.name)) visit(path);
      } else if (entry.isFile() && /\.(tf|tf\.json|tfvars|tfvars\.json)$/.test(entry.name)) out.push(path);
    }
  };
  visit(dir);
  return out.sort();
}

/** What a resolution can take from a value: a plain string or exactly `${reference}`; OPAQUE must be neither. */
function resolvesToNothing(value) {
  if (typeof value !== 'string') return true;
  if (!value.includes('${') && !value.includes('%{')) return value.trim() === '';
  return !/^\$\{\s*[\w.-]+\s*\}$/.test(value);
}

export async function compareValues(paths) {
  const { splitHcl } = await load('parsers/terraform/hcl-items.js');
  const { readShallow } = await load('parsers/terraform/body-view.js');
  const { exactValue, resolvableValue, OPAQUE } = await load('parsers/terraform/hcl-values.js');
  const { parseHcl } = await load('parsers/terraform/hcl-parser.js');
  const counts = { blocks: 0, exact: 0, resolved: 0, opaque: 0, declined: 0, unparsed: 0 };
  const differences = [];
  const check = (where, shallow, body) => {
    for (const [name, expression] of shallow.attributes) {
      const full = body[name];
      const exact = exactValue(expression);
      if (exact) {
        counts.exact++;
        if (!isDeepStrictEqual(exact.value, full))
          differences.push(`${where} ${name}: ${JSON.stringify(exact.value)} ≠ ${JSON.stringify(full)}`);
      }
      const resolvable = resolvableValue(expression);
      if (!resolvable) counts.declined++;
      else if (resolvable.value === OPAQUE) {
        counts.opaque++;
        if (!resolvesToNothing(full))
          differences.push(`${where} ${name}: OPAQUE, but the parse gives ${JSON.stringify(full)}`);
      } else {
        // Read by resolution alone (a heredoc): compared like an exact value, counted once.
        if (!exact) counts.resolved++;
        if (!isDeepStrictEqual(resolvable.value, full))
          differences.push(`${where} ${name}: ${JSON.stringify(resolvable.value)} ≠ ${JSON.stringify(full)}`);
      }
    }
    for (const [type, items] of shallow.nested) {
      const bodies = Array.isArray(body[type]) ? body[type] : [];
      items.forEach((item, index) => {
        const inner = item.labels.length === 0 ? readShallow(item.body) : undefined;
        if (inner && bodies[index]) check(`${where} ${type}[${index}]`, inner, bodies[index]);
      });
    }
  };
  for (const path of paths) {
    if (!/\.(tf|tfvars)$/.test(path)) continue;
    const text = readFileSync(path, 'utf8');
    for (const item of splitHcl(text).items) {
      let parsed;
      try {
        parsed = parseHcl(`${item.text}\n`);
      } catch {
        counts.unparsed++;
        continue;
      }
      const where = `${path}:${item.line}`;
      if (item.kind === 'attribute') {
        counts.blocks++;
        check(
          where,
          { attributes: new Map([[item.name, item.text.slice(item.text.indexOf('=') + 1)]]), nested: new Map() },
          parsed,
        );
        continue;
      }
      let body = parsed[item.type];
      for (const label of item.labels) body = body?.[label];
      body = Array.isArray(body) ? body[0] : undefined;
      const shallow = readShallow(item.body);
      if (!body || !shallow) continue;
      counts.blocks++;
      check(where, shallow, body);
    }
  }
  return { counts, differences };
}

export async function compareDependencies(dir) {
  const { createTerraformParser } = await load('parsers/terraform-config.js');
  const { createFileAccess } = await load('file-access.js');
  const paths = terraformFiles(dir);
  const inputs = paths.map((path) => ({ path, text: readFileSync(path, 'utf8') }));
  const files = createFileAccess([dir]);
  const fast = await createTerraformParser({ fastPath: true }).parseTogether(inputs, files);
  const full = await createTerraformParser({ fastPath: false }).parseTogether(inputs, files);
  const shape = (results) => results.map((input) => [input.file, input.dependencies, input.jobs ?? []]);
  const problems = (results) => results.flatMap((input) => input.errors);
  return {
    files: paths.length,
    dependencies: fast.reduce((sum, input) => sum + input.dependencies.length, 0),
    equal: isDeepStrictEqual(shape(fast), shape(full)),
    problemsEqual: isDeepStrictEqual(problems(fast), problems(full)),
    problems: [problems(fast).length, problems(full).length],
    paths,
  };
}

/** The module trees among `paths`: a corpus root also holds files such as COMMITS.txt, which are not trees. */
export function treesAmong(paths) {
  return paths.filter((path) => statSync(path, { throwIfNoEntry: false })?.isDirectory());
}

/** Every subdirectory of a corpus root, each one module repository. */
export function corpusTrees(root) {
  return treesAmong(readdirSync(root).map((name) => join(root, name))).sort();
}

export async function run(dirs = []) {
  const trees = treesAmong(dirs);
  // Comparing nothing would print a PASS that proves nothing.
  if (trees.length === 0)
    throw new Error('terraform-equality: no Terraform trees given (node bench/terraform-equality.js DIR…)');
  let allEqual = true;
  const total = { files: 0, dependencies: 0, attributes: 0 };
  for (const dir of trees) {
    const deps = await compareDependencies(dir);
    const values = await compareValues(deps.paths);
    const ok = deps.equal && values.differences.length === 0;
    allEqual &&= ok;
    total.files += deps.files;
    total.dependencies += deps.dependencies;
    total.attributes += values.counts.exact + values.counts.resolved + values.counts.opaque;
    console.log(
      `${ok ? 'EQUAL' : 'DIFFERENT'}  ${relative(process.cwd(), dir) || dir}: ${deps.files} files, ${deps.dependencies} dependencies ${deps.equal ? 'equal' : 'DIFFERENT'} to the full parse (problems ${deps.problems.join(' vs ')}${deps.problemsEqual ? ', equal' : ''}); ${values.counts.blocks} blocks: ${values.counts.exact} attributes read exactly, ${values.counts.resolved} heredocs read, ${values.counts.opaque} opaque, ${values.counts.declined} left to the parser, ${values.differences.length} differences`,
    );
    for (const difference of values.differences.slice(0, 10)) console.log(`    ${difference}`);
  }
  console.log(
    `${allEqual ? 'PASS' : 'MISS'}  shallow reader = full parse: ${total.files} files, ${total.dependencies} dependencies, ${total.attributes} attributes${allEqual ? ', all equal' : ''}`,
  );
  return allEqual;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const ok = await run(args[0] === '--corpus' ? args.slice(1).flatMap(corpusTrees) : args);
  process.exitCode = ok ? 0 : 1;
}
