// The one list of matchers (src/catalog/matchers.ts) against the schema, the matcher, the loader and `providers`.
import { forOutput } from '../../src/sanitize.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type MatcherKind, matchersOf } from '../../src/catalog/matchers.js';
import { buildMatcher } from '../../src/catalog/matcher.js';
import { ProviderSchema, type Provider } from '../../src/catalog/schema.js';
import { describeProvider, searchProviders } from '../../src/commands/providers.js';
import type { Dependency } from '../../src/model.js';

/** A provider with one matcher of every kind, provider-wide and on a component. */
const acme: Provider = {
  ...ProviderSchema.parse({
    name: 'Acme Cloud',
    category: 'cloud',
    status: { url: 'https://status.acme.example', platform: 'statuspage' },
    match: {
      npm: ['@acme/*'],
      terraform: { sources: ['acme/acme'], resources: ['acme_'] },
      domains: ['acme.example'],
      dns: {
        cname: ['*.edge.acme.example'],
        ns: ['ns*.acme-dns.example'],
        mx: ['mx.acme.example'],
        spf: ['_spf.acme.example'],
        txt: ['acme-verify='],
      },
      pypi: ['acme-sdk'],
      go: ['github.com/acme/acme-go'],
      rubygems: ['acme-ruby'],
      maven: ['com.acme:*'],
      nuget: ['Acme.Client'],
      composer: ['acme/acme-php'],
      cargo: ['acme-rs'],
      images: ['registry.acme.example'],
      actions: ['acme/*'],
      npmExclude: ['@acme/eslint-config', '@acme/build-*'],
    },
    components: [
      {
        name: 'Queues',
        match: {
          npm: ['acme-queues'],
          terraform: ['acme_queue'],
          domains: ['queues.acme.example'],
          dns: {
            cname: ['q.acme.example'],
            ns: ['qns.acme.example'],
            mx: ['qmx.acme.example'],
            spf: ['q.spf.acme.example'],
            txt: ['acme-q='],
            ip: ['QUEUES'],
          },
          pypi: ['acme-queues'],
          go: ['github.com/acme/acme-go/queues'],
          rubygems: ['acme-queues'],
          maven: ['com.acme:queues'],
          nuget: ['Acme.Queues'],
          composer: ['acme/queues'],
          cargo: ['acme-queues'],
          images: ['queues.registry.acme.example'],
          actions: ['acme/queue-action'],
        },
      },
    ],
  }),
  id: 'acme',
  file: 'acme.yaml',
};

interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
}

/** Every array-of-strings field a JSON Schema object allows, as a dotted path. */
function schemaLeaves(schema: JsonSchema | undefined, path = ''): string[] {
  if (!schema) return [];
  if (schema.type === 'array') return schema.items?.type === 'string' ? [path] : [];
  return Object.entries(schema.properties ?? {}).flatMap(([key, child]) =>
    schemaLeaves(child, path ? `${path}.${key}` : key),
  );
}

/** Every array of strings in a zod-parsed object, as a dotted path. */
function leaves(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.every((item) => typeof item === 'string') ? [path] : [];
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, child]) => leaves(child, path ? `${path}.${key}` : key));
  return [];
}

describe('the list of matchers', () => {
  it('has an entry for every matcher field the schema allows, provider-wide and per component', () => {
    const schema = z.toJSONSchema(ProviderSchema, { io: 'output' }) as JsonSchema;
    const allowed = [
      ...schemaLeaves(schema.properties?.match),
      ...schemaLeaves(schema.properties?.components?.items?.properties?.match).map((path) => `component.${path}`),
    ];
    // npmExclude narrows the npm matchers instead of being one.
    const fields = [
      ...leaves(acme.match).filter((path) => path !== 'npmExclude'),
      ...leaves(acme.components[0]?.match).map((path) => `component.${path}`),
    ];
    expect(allowed).toContain('npmExclude');
    // The sample provider above uses every matcher field there is; a new one in the schema must be added to it.
    expect(fields.sort()).toEqual(allowed.filter((path) => path !== 'npmExclude').sort());
    expect(matchersOf(acme)).toHaveLength(fields.length);
    const kinds = new Set(matchersOf(acme).map((entry) => entry.kind));
    expect(kinds.size).toBe(19);
  });

  it('is what the matcher indexes: a dependency per npm, Terraform, domain, registry, image and action matcher maps to its target', () => {
    const matcher = buildMatcher({ providers: new Map([['acme', acme]]) });
    const dep = (ecosystem: Dependency['ecosystem'], name: string): Dependency => ({
      ecosystem,
      name,
      file: 'x',
      direct: true,
      via: [],
    });
    const targets = (dependency: Dependency) =>
      matcher.match(dependency).map((hit) => `${hit.provider}${hit.component ? `/${hit.component.name}` : ''}`);
    expect(targets(dep('npm', '@acme/sdk'))).toEqual(['acme']);
    expect(targets(dep('npm', '@acme/eslint-config'))).toEqual([]);
    expect(targets(dep('npm', '@acme/build-tools'))).toEqual([]);
    expect(targets(dep('npm', '@acme/builder'))).toEqual(['acme']);
    expect(targets(dep('npm', 'acme-queues'))).toEqual(['acme/Queues']);
    expect(targets(dep('terraform-provider', 'acme/acme'))).toEqual(['acme']);
    expect(targets(dep('terraform-resource', 'acme_queue'))).toEqual(['acme/Queues']);
    expect(targets(dep('domain', 'api.acme.example'))).toEqual(['acme']);
    expect(targets(dep('domain', 'queues.acme.example'))).toEqual(['acme/Queues']);
    expect(targets(dep('pypi', 'Acme_SDK'))).toEqual(['acme']);
    expect(targets(dep('maven', 'com.acme:billing'))).toEqual(['acme']);
    expect(targets(dep('maven', 'com.acme:queues'))).toEqual(['acme/Queues']);
    expect(targets(dep('go', 'github.com/acme/acme-go/queues/v2'))).toEqual(['acme/Queues']);
    expect(targets(dep('container-image', 'queues.registry.acme.example/worker:1'))).toEqual(['acme/Queues']);
    expect(targets(dep('ci-action', 'acme/deploy-action'))).toEqual(['acme']);
  });

  it('is what `providers` searches and shows: every kind, provider-wide and on the component', () => {
    const byKind = (kind: MatcherKind) => matchersOf(acme).filter((entry) => entry.kind === kind);
    for (const entry of matchersOf(acme)) expect(searchProviders([acme], entry.value), entry.value).toEqual([acme]);
    const shown = forOutput(describeProvider(acme));
    expect(shown).toContain('resources    acme_*');
    expect(shown).toContain('dns txt      acme-verify=');
    expect(shown).toContain(`Queues ← acme-queues, acme_queue*, queues.acme.example, dns cname q.acme.example`);
    expect(shown).toContain('dns ip QUEUES');
    expect(byKind('dns-ip')).toEqual([{ kind: 'dns-ip', value: 'QUEUES', component: 'Queues' }]);
  });
});
