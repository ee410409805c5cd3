// Catalog load and matching of 10,000 dependencies, against a baseline of reading and YAML-parsing the same files.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { loadCatalog } from '../dist/catalog/loader.js';
import { buildMatcher, exposuresFor } from '../dist/catalog/matcher.js';
import { PROVIDERS_DIR } from '../dist/paths.js';
import { median, report } from './harness.js';

export async function run() {
  console.log('\n# catalog: load + match 10,000 dependencies');
  const files = readdirSync(PROVIDERS_DIR).filter((name) => name.endsWith('.yaml'));
  const bareParse = await median(() => {
    for (const name of files) parse(readFileSync(join(PROVIDERS_DIR, name), 'utf8'));
  });
  const fresh = await median(() => loadCatalog([PROVIDERS_DIR], { cache: false }));
  report(`load + validate ${files.length} provider files`, fresh, 'bare YAML parse', bareParse);
  const load = await median(() => loadCatalog());
  report('load the build-time copy (what start-up does)', load, 'bare YAML parse', bareParse);

  const catalog = loadCatalog();
  const names = [];
  for (const provider of catalog.providers.values())
    for (const name of provider.match.npm ?? []) names.push(name.replace('/*', '/some-package'));
  const hosts = [];
  for (const provider of catalog.providers.values())
    for (const domain of provider.match.domains ?? [])
      hosts.push(`api.${domain.replace(/^\*\./, 'x.').replace('{region}', 'us-east-1')}`);
  const dependencies = [];
  for (let i = 0; i < 10_000; i++) {
    const kind = i % 4;
    if (kind === 0)
      dependencies.push({ ecosystem: 'npm', name: names[i % names.length], file: 'f', direct: false, via: [] });
    else if (kind === 1)
      dependencies.push({ ecosystem: 'npm', name: `unrelated-package-${i}`, file: 'f', direct: false, via: [] });
    else if (kind === 2)
      dependencies.push({ ecosystem: 'domain', name: hosts[i % hosts.length], file: 'f', direct: true, via: [] });
    else
      dependencies.push({
        ecosystem: 'terraform-resource',
        name: `aws_s3_bucket_${i % 7}`,
        file: 'f',
        direct: true,
        via: [],
        region: 'eu-west-2',
      });
  }
  const json = JSON.stringify(dependencies);
  const baseline = await median(() => JSON.parse(json));
  const build = await median(() => buildMatcher(catalog));
  const matcher = buildMatcher(catalog);
  const match = await median(() => exposuresFor(dependencies, matcher, catalog));
  report('build matcher indexes', build, 'JSON.parse of the 10k deps', baseline);
  report('match 10,000 dependencies', match, 'JSON.parse of the 10k deps', baseline);
  report('catalog load + build + match (one scan)', load + build + match, 'JSON.parse of the 10k deps', baseline);
}
