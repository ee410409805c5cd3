// The published JSON contract (schema/*.schema.json) against what the built CLI really prints, command by command.
// Every schema object is closed (additionalProperties: false), so a field added to an output without its schema
// fails here; the check report's samples are chosen so every field the schema names is printed at least once.
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { publishIndex } from '../../src/incidents/publish.js';
import { IncidentSchema } from '../../src/incidents/schema.js';
import { IncidentIndex } from '../../src/incidents/store.js';
import { PROVIDERS_SCHEMA, providersJsonSchema } from '../../scripts/build-provider-schema.js';
import { tempDir, writeTestCatalog } from '../helpers/catalog.js';
import { copyIndex, runCli } from '../helpers/cli.js';
import { type DnsServer, startDnsServer } from '../helpers/dns-server.js';
import { REPORT_PROVIDERS } from '../helpers/report-fixture.js';
import { startStatusServer } from '../helpers/status-server.js';

const SCHEMAS = readdirSync('schema').map((name) => JSON.parse(readFileSync(join('schema', name), 'utf8')));
// Formats (uri) are annotations here; times are checked by their own patterns.
const ajv = new Ajv2020({ allErrors: true, strict: true, validateFormats: false });
for (const schema of SCHEMAS) ajv.addSchema(schema);

function expectValid(schemaId: string, output: string): unknown {
  const data: unknown = JSON.parse(output);
  const validate = ajv.getSchema(schemaId);
  if (!validate) throw new Error(`no schema ${schemaId}`);
  expect(validate(data), ajv.errorsText(validate.errors, { separator: '\n' })).toBe(true);
  return data;
}

const REPORT = writeTestCatalog(REPORT_PROVIDERS);
const FX = ['--index', 'test/fixtures/report/index', '--since', '2021-08-10', '--until', '2021-08-12'];
const AUGUST = ['--since', '2021-08-01', '--until', '2021-08-31T23:59Z', '--no-snapshot'];
let dns: DnsServer;

beforeAll(async () => {
  dns = await startDnsServer({
    zone: {
      'acme.com': { NS: ['ns-1279.awsdns-31.org'], TXT: ['v=spf1 include:sendgrid.net ~all'] },
      'www.acme.com': { CNAME: 'cname.vercel-dns.com' },
      'cname.vercel-dns.com': { A: ['76.76.21.21'] },
    },
  });
});
afterAll(() => dns.close());

/** Declared through a shared definition, but not printed there: a path that cannot be read has no line. */
const NEVER_PRINTED = new Set(['.errors[].line']);

/** Every `check --format json` the samples print, for the coverage test at the end. */
const reports: unknown[] = [];
async function check(args: string[], options: Parameters<typeof runCli>[1] = {}) {
  const run = await runCli(['check', ...args, '--format', 'json'], options);
  expect(run.stdout, run.stderr).not.toBe('');
  reports.push(expectValid('check-report.schema.json', run.stdout));
  return run;
}

describe('check --format json matches schema/check-report.schema.json', () => {
  it('for findings, ignores, through-exposures, regions and unreadable inputs', async () => {
    await check(['test/fixtures/report/stack', ...FX], { catalog: REPORT });
    await check(['test/fixtures/report/configured-stack'], { catalog: REPORT });
    await check(['examples/saas-app', '--index', copyIndex('test/fixtures/index'), ...AUGUST]);
    await check(['test/fixtures/terraform/configs/root-with-modules', '--index', tempDir(), '--no-snapshot']);
    const unreadable = ['test/fixtures/report/broken-stack', 'no-such-stack.json', 'examples/saas-app/package.json'];
    await check([...unreadable, '--index', tempDir()]);
    await check(['test/fixtures/lockfiles/npm-v3-workspaces', '--index', tempDir(), '--no-snapshot']);
    // A repository in Dub's own npm scope: Dub is left out, in ownProviders.
    await check(['test/fixtures/lockfiles/npm-own-vendor', '--index', tempDir(), '--no-snapshot', '--no-resolve']);
    // AWS used directly and through Quay.io, which runs on it: one entry, the other route in alsoThrough.
    const upstream = tempDir('downstack-upstream-');
    writeFileSync(join(upstream, 'Dockerfile'), 'FROM quay.io/cilium/hubble-ui:v0.13.3\n');
    writeFileSync(join(upstream, 'domains.txt'), 'ledger.s3.us-east-1.amazonaws.com\n');
    await check([upstream, '--index', tempDir(), '--no-snapshot', '--no-resolve']);
    // A folder inside the monorepo: the root's lockfile, read for that workspace (inputs[].workspaceRoot).
    await check(['test/fixtures/lockfiles/pnpm-v9-workspaces/packages/api', '--index', tempDir(), '--no-snapshot']);
  });

  it('for scheduled jobs and the runs inside each replay window, interval schedules without a start included', async () => {
    const stack = tempDir('downstack-jobs-');
    cpSync('test/fixtures/jobs/replay-stack', stack, { recursive: true });
    writeFileSync(
      join(stack, 'serverless.yml'),
      'service: sweeper\nprovider:\n  name: aws\nfunctions:\n  sweep:\n    handler: sweep.handler\n    events:\n      - schedule: rate(10 minutes)\n',
    );
    await check([stack, '--index', copyIndex('test/fixtures/index'), ...AUGUST]);
  });

  it('for DNS evidence and the DNS summary, looked up or skipped', async () => {
    const domains = ['test/fixtures/dns/stack/domains.txt', '--index', tempDir(), '--no-snapshot'];
    await check([...domains, '--resolver', dns.address], { online: true });
    await check(domains);
  });

  it('for the bundled history, a replay that starts before the first post, and a published index fresh or cached', async () => {
    const stack = tempDir('downstack-stack-');
    writeFileSync(join(stack, 'domains.txt'), 'api.github.com\ndiscord.com\n');
    // GitHub's 2018-10-21 outage (hand-checked, exact) and Discord's of 2022-03-08 (first post only: a lead applies).
    await check([
      stack,
      '--index',
      tempDir(),
      '--since',
      '2018-10-01',
      '--until',
      '2022-04-01',
      '--no-resolve',
      '--lead',
      '45m',
    ]);

    const publisher = tempDir();
    cpSync('test/fixtures/report/index', publisher, { recursive: true });
    const out = tempDir('downstack-public-');
    await publishIndex(new IncidentIndex(publisher), out, new Date('2021-08-11T06:00:00Z'));
    const host = await startStatusServer({
      '/fleet/manifest.json': { body: readFileSync(join(out, 'manifest.json')) },
    });
    for (const name of readdirSync(join(out, 'providers')))
      host.routes.set(`/fleet/providers/${name}`, { body: readFileSync(join(out, 'providers', name)) });
    const runner = tempDir();
    const published = [
      'test/fixtures/report/stack',
      '--index',
      runner,
      '--index-url',
      `${host.url}/fleet/`,
      ...FX.slice(2),
    ];
    await check(published, { catalog: REPORT, online: true });
    await host.close();
    await check(published, { catalog: REPORT, online: true });
  });

  it('for findings beyond the reach setting (dev-only providers) and a provider known only by its SDK helpers', async () => {
    const devStack = tempDir('downstack-dev-stack-');
    const manifest = JSON.parse(readFileSync('test/fixtures/report/stack/package.json', 'utf8'));
    writeFileSync(
      join(devStack, 'package.json'),
      JSON.stringify({ name: 'acme-tools', devDependencies: manifest.dependencies }, null, 2),
    );
    await check([devStack, ...FX], { catalog: REPORT });
    // Trello runs on AWS: an AWS incident reaches a dev-only Trello client through it, and stays beyond reach.
    const trello = tempDir('downstack-dev-trello-');
    writeFileSync(
      join(trello, 'package.json'),
      JSON.stringify({ name: 'acme-board', devDependencies: { trello: '^0.11.0' } }),
    );
    const throughRun = await check([trello, '--index', copyIndex('test/fixtures/index'), ...AUGUST]);
    expect(JSON.parse(throughRun.stdout).beyondReach).toEqual(
      expect.arrayContaining([expect.objectContaining({ provider: 'aws', through: 'trello', reach: 'dev' })]),
    );
    const history = tempDir('downstack-dev-history-');
    writeFileSync(
      join(history, 'package.json'),
      JSON.stringify({
        name: 'acme-bot',
        dependencies: { '@aws-sdk/credential-providers': '^3.600.0' },
        devDependencies: { '@octokit/rest': '^21.0.0', 'discord.js': '^14.0.0' },
      }),
    );
    const run = await check([
      history,
      '--index',
      tempDir(),
      '--since',
      '2018-10-01',
      '--until',
      '2022-04-01',
      '--lead',
      '45m',
    ]);
    const report = JSON.parse(run.stdout);
    expect(report.reach).toBe('direct');
    expect(report.beyondReach.length).toBeGreaterThan(0);
    expect(report.findings.filter((finding: { reach: string }) => finding.reach !== 'direct')).toEqual([]);
  });

  it('prints every field the schema names in at least one of the samples above', () => {
    const seen = new Set<string>();
    const walk = (value: unknown, path: string) => {
      if (Array.isArray(value)) for (const item of value) walk(item, `${path}[]`);
      else if (value && typeof value === 'object')
        for (const [key, child] of Object.entries(value)) {
          seen.add(`${path}.${key}`);
          walk(child, `${path}.${key}`);
        }
    };
    for (const report of reports) walk(report, '');
    const declared: string[] = [];
    const root = SCHEMAS.find((schema) => schema.$id === 'check-report.schema.json');
    const collect = (schema: Record<string, unknown>, path: string, depth: number) => {
      if (depth > 6) return;
      const ref = schema.$ref as string | undefined;
      if (ref) return collect(root.$defs[ref.replace('#/$defs/', '')], path, depth + 1);
      for (const option of (schema.oneOf as Array<Record<string, unknown>> | undefined) ?? [])
        collect(option, path, depth + 1);
      if (schema.items) collect(schema.items as Record<string, unknown>, `${path}[]`, depth + 1);
      for (const [key, child] of Object.entries((schema.properties as Record<string, Record<string, unknown>>) ?? {})) {
        declared.push(`${path}.${key}`);
        collect(child, `${path}.${key}`, depth + 1);
      }
    };
    collect(root, '', 0);
    const unexercised = declared.filter((path) => !seen.has(path) && !NEVER_PRINTED.has(path));
    expect(unexercised).toEqual([]);
  });
});

describe('the other JSON the CLI prints', () => {
  it('incidents --format json matches schema/incidents.schema.json, snapshot and synced index alike', async () => {
    const all = await runCli(['incidents', '--since', '2000-01-01', '--format', 'json', '--index', tempDir()]);
    const incidents = expectValid('incidents.schema.json', all.stdout) as unknown[];
    expect(incidents.length).toBeGreaterThan(20);
    const august = await runCli(['incidents', '--format', 'json', '--index', 'test/fixtures/index', ...AUGUST]);
    expect((expectValid('incidents.schema.json', august.stdout) as unknown[]).length).toBeGreaterThan(0);
  });

  it('declares every field the index schema stores for an incident', () => {
    const schema = SCHEMAS.find((entry) => entry.$id === 'incidents.schema.json');
    const stored = z.toJSONSchema(IncidentSchema, { io: 'input', unrepresentable: 'any' }) as { properties: object };
    expect(Object.keys(schema.$defs.incident.properties).sort()).toEqual(Object.keys(stored.properties).sort());
  });

  it('explain, import, jobs and providers print what their schemas say', async () => {
    expectValid(
      'explain.schema.json',
      (await runCli(['explain', 'google-cloud', 'examples/saas-app', '--format', 'json'])).stdout,
    );
    const own = await runCli([
      'explain',
      'dub',
      'test/fixtures/lockfiles/npm-own-vendor',
      '--no-resolve',
      '--format',
      'json',
    ]);
    const [explained] = expectValid('explain.schema.json', own.stdout) as Array<{ own?: { scope: string } }>;
    expect(explained?.own?.scope).toBe('@dub');
    const imported = await runCli(
      ['import', 'test/fixtures/import/text/guide-page-utc-postmortem.txt', '--dry-run', '--format', 'json'],
      { catalog: writeTestCatalog(['twingate']) },
    );
    expectValid('import.schema.json', imported.stdout);
    const jobs = await runCli(['jobs', 'test/fixtures/jobs/repo', 'test/fixtures/jobs/terraform', '--format', 'json']);
    const listed = expectValid('jobs.schema.json', jobs.stdout) as { jobs: Array<{ startsAt?: string }> };
    expect(listed.jobs.some((job) => job.startsAt)).toBe(true);
    const providers = await runCli(['providers', '--format', 'json']);
    expect((expectValid('providers.schema.json', providers.stdout) as unknown[]).length).toBeGreaterThan(300);
  });

  it('ships every schema in the npm package', () => {
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { files: string[] };
    expect(manifest.files).toContain('schema');
    expect(SCHEMAS.map((schema) => schema.$id).sort()).toEqual([
      'check-report.schema.json',
      'explain.schema.json',
      'import.schema.json',
      'incidents.schema.json',
      'jobs.schema.json',
      'providers.schema.json',
    ]);
  });

  it('publishes the providers schema as generated from the catalog schema (node scripts/build-provider-schema.js)', () => {
    expect(JSON.parse(readFileSync(PROVIDERS_SCHEMA, 'utf8'))).toEqual(providersJsonSchema());
  });
});
