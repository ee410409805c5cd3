// One fresh process doing what `downstack check` does with a lockfile before the index: scan + match.
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadCatalog } from '../../dist/catalog/loader.js';
import { buildMatcher, exposuresFor } from '../../dist/catalog/matcher.js';
import { PROVIDERS_DIR } from '../../dist/paths.js';
import { scanPaths } from '../../dist/scan.js';

const pool = fileURLToPath(new URL('../../test/fixtures/providers/', import.meta.url));
const fixtureCatalog = ['aws', 'openai', 'sentry', 'slack', 'stripe'].map((id) => `${pool}${id}.yaml`);
const hasCatalog = existsSync(PROVIDERS_DIR) && readdirSync(PROVIDERS_DIR).some((name) => name.endsWith('.yaml'));
const catalog = loadCatalog(hasCatalog ? [PROVIDERS_DIR] : fixtureCatalog);
const { inputs } = await scanPaths([process.argv[2]]);
const dependencies = inputs.flatMap((input) => input.dependencies);
const { exposures } = exposuresFor(dependencies, buildMatcher(catalog), catalog);
process.stdout.write(`${dependencies.length} ${exposures.length}\n`);
