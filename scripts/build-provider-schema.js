// Writes schema/providers.schema.json (what `downstack providers --format json` prints) from the catalog's own zod
// schema, so the published contract and the validation of providers/*.yaml cannot drift apart. Run after `tsc`:
// `node scripts/build-provider-schema.js`; test/schema/json-contract.test.ts fails while the file is out of date.
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { ProviderSchema } from '../dist/catalog/schema.js';

export const PROVIDERS_SCHEMA = fileURLToPath(new URL('../schema/providers.schema.json', import.meta.url));

export function providersJsonSchema() {
  const provider = z.toJSONSchema(ProviderSchema, { target: 'draft-2020-12', io: 'output' });
  delete provider.$schema;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'providers.schema.json',
    title: 'downstack providers --format json',
    description:
      'The catalog providers that match the search, each as its providers/<id>.yaml file reads, with its id. Generated from src/catalog/schema.ts by scripts/build-provider-schema.js.',
    type: 'array',
    items: {
      ...provider,
      properties: { id: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*$' }, ...provider.properties },
      required: ['id', ...(provider.required ?? [])],
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  writeFileSync(PROVIDERS_SCHEMA, `${JSON.stringify(providersJsonSchema(), null, 2)}\n`);
