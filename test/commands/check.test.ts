import { mkdirSync, mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyIndex, runCli } from '../helpers/cli.js';

// Replay windows as the pages gave them: the lead before a first post has tests of its own.
const AUGUST = ['--since', '2021-08-01', '--until', '2021-08-31T23:59Z', '--no-snapshot', '--lead', '0'];

describe('downstack check (real binary, real catalog)', () => {
  it('maps the example stack to providers with their evidence, and finds the incidents that touched it', async () => {
    const index = copyIndex('test/fixtures/index');
    const run = await runCli(['check', 'examples/saas-app', '--index', index, '--format', 'json', ...AUGUST]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.schemaVersion).toBe(1);
    expect(report.window).toEqual({ since: '2021-08-01T00:00:00.000Z', until: '2021-08-31T23:59:00.000Z' });
    expect(report.inputs.map((i: { kind: string }) => i.kind).sort()).toEqual(['domains', 'package.json']);

    const providers = Object.fromEntries(report.providers.map((p: { id: string }) => [p.id, p]));
    expect(Object.keys(providers)).toEqual(
      expect.arrayContaining(['stripe', 'aws', 'twingate', 'heroku', 'slack', 'google-cloud']),
    );
    expect(providers.aws.components).toEqual(
      expect.arrayContaining([
        { name: 'Amazon Simple Storage Service', region: 'us-east-1' },
        { name: 'Amazon DynamoDB' },
      ]),
    );
    expect(providers.stripe.evidence.map((d: { name: string; line: number }) => [d.name, d.line])).toEqual(
      expect.arrayContaining([
        ['stripe', 13],
        ['api.stripe.com', 2],
      ]),
    );
    expect(providers['google-cloud'].through).toBe('twingate');

    const findings = Object.fromEntries(report.findings.map((f: { incident: { id: string } }) => [f.incident.id, f]));
    // S3 in us-east-1 is used (bucket host); the eu-west-2 load balancer incident is not ours.
    expect(Object.keys(findings).sort()).toEqual(['aws-s3-use1', 'gcp-gke', 'stripe-open', 'tg-2021-08-10']);
    expect(findings['tg-2021-08-10'].replay).toEqual({ from: '2021-08-10T19:39:00Z', to: '2021-08-10T21:24:00Z' });
    expect(findings['aws-s3-use1'].components).toEqual(['Amazon Simple Storage Service']);
    expect(findings['gcp-gke']).toMatchObject({ through: 'twingate', components: ['Google Kubernetes Engine'] });
    expect(findings['stripe-open']).toMatchObject({ active: true, replay: { from: '2021-08-30T23:00:00Z', to: null } });
    // Twingate's window runs into the S3 one; the open Stripe incident stands alone.
    expect(report.replay).toEqual([
      { from: '2021-08-10T19:39:00Z', to: '2021-08-10T22:30:00Z', providers: ['twingate', 'aws'], runs: [] },
      { from: '2021-08-20T10:00:00Z', to: '2021-08-20T11:00:00Z', providers: ['google-cloud'], runs: [] },
      { from: '2021-08-30T23:00:00Z', to: null, providers: ['stripe'], runs: [] },
    ]);
    // The IP address in domains.txt is reported with its line, and the rest of the scan went on.
    expect(run.stderr).toContain('examples/saas-app/domains.txt:8: IP address "10.0.0.12"');
    expect(report.inputs.find((i: { kind: string }) => i.kind === 'domains').errors).toHaveLength(1);
  });

  it('prints a table with providers, why, incidents and what to replay', async () => {
    const run = await runCli(['check', 'examples/saas-app', '--index', copyIndex('test/fixtures/index'), ...AUGUST]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^downstack {2}\d+ providers \(\+1 upstream\) from 2 inputs/);
    expect(run.stdout).toMatch(/Twingate\s+all components/);
    expect(run.stdout).toContain('← domains.txt:6 controller.twingate.com');
    expect(run.stdout).toContain('ACTIVE    Stripe · Elevated API errors');
    expect(run.stdout).toContain('replay 2021-08-10 19:39 → 21:24 UTC (1h 45m)');
    expect(run.stdout).toContain('stated impact 2021-08-10 19:39 → 19:46 UTC (postmortem)');
    expect(run.stdout).toContain(
      'Anything that failed between 2021-08-10 19:39 UTC and 2021-08-10 22:30 UTC may need a replay (2h 51m)',
    );
    expect(run.stdout).not.toMatch(/\u001b\[/);
    const forced = await runCli(
      ['check', 'examples/saas-app', '--index', copyIndex('test/fixtures/index'), ...AUGUST],
      {
        env: { NO_COLOR: '', FORCE_COLOR: '1' },
      },
    );
    expect(forced.stdout).toMatch(/\u001b\[1mdownstack/);
    const both = await runCli(
      ['check', 'examples/saas-app', '--index', copyIndex('test/fixtures/index'), ...AUGUST, '--no-color'],
      { env: { NO_COLOR: '', FORCE_COLOR: '1' } },
    );
    expect(both.stdout).not.toMatch(/\u001b\[/);
  });

  it('gates a deploy with --fail-on', async () => {
    const index = copyIndex('test/fixtures/index');
    expect(
      (await runCli(['check', 'examples/saas-app', '--index', index, '--fail-on', 'active', ...AUGUST])).code,
    ).toBe(1);
    expect(
      (
        await runCli([
          'check',
          'examples/saas-app',
          '--index',
          index,
          '--fail-on',
          'active',
          '--no-snapshot',
          '--since',
          '2021-08-01',
          '--until',
          '2021-08-25',
        ])
      ).code,
    ).toBe(0);
    expect(
      (
        await runCli([
          'check',
          'examples/saas-app',
          '--index',
          index,
          '--fail-on',
          'any',
          '--no-snapshot',
          '--since',
          '2021-08-01',
          '--until',
          '2021-08-25',
        ])
      ).code,
    ).toBe(1);
    expect((await runCli(['check', 'examples/saas-app', '--index', index, '--fail-on', 'none', ...AUGUST])).code).toBe(
      0,
    );
  });

  it('says so when the window is empty, and shows recent incidents as context', async () => {
    const stack = '{"name":"uploader","dependencies":{"@aws-sdk/client-s3":"^3"}}';
    const run = await runCli(
      [
        'check',
        '-',
        '--index',
        copyIndex('test/fixtures/index'),
        '--since',
        '2021-09-01',
        '--until',
        '2021-09-30',
        '--no-snapshot',
      ],
      { input: stack },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'No incident between 2021-09-01 00:00 UTC and 2021-09-30 00:00 UTC touched the components this stack uses.',
    );
    expect(run.stdout).toContain('2021-08-10 21:00 UTC  Amazon Web Services: S3 errors in N. Virginia');
    expect(run.stdout).toContain('2021-08-10 09:33 UTC  Amazon Web Services: Load balancer health checks in London');
  });

  it('reads a pasted stack from stdin and detects its kind', async () => {
    const json = await runCli(
      ['check', '-', '--index', copyIndex('test/fixtures/index'), '--format', 'json', ...AUGUST],
      {
        input: '{"name":"x","dependencies":{"stripe":"^16"}}',
      },
    );
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).inputs).toEqual([
      { file: '<stdin>', kind: 'package.json', dependencies: 1, errors: [] },
    ]);
    const hosts = await runCli(
      ['check', '-', '--format', 'json', '--index', copyIndex('test/fixtures/index'), ...AUGUST],
      {
        input: 'api.stripe.com\nhooks.slack.com\n',
      },
    );
    expect(
      JSON.parse(hosts.stdout)
        .providers.map((p: { id: string }) => p.id)
        .sort(),
    ).toEqual(['slack', 'stripe']);
  });

  it('reports unreadable inputs as file:line, goes on with the rest, and exits 2 only when nothing was read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'downstack-bad-'));
    writeFileSync(join(dir, 'package.json'), '{\n  "dependencies": {\n    "stripe": "1"\n  \n');
    writeFileSync(join(dir, 'domains.txt'), Buffer.from([0x61, 0x00, 0x62]));
    // A sparse 1 GB lockfile costs no disk, and must be refused by size before anything reads it.
    writeFileSync(join(dir, 'hosts.txt'), '');
    truncateSync(join(dir, 'hosts.txt'), 1024 ** 3);
    const broken = await runCli(['check', dir, join(dir, 'missing.json'), '--index', copyIndex('test/fixtures/index')]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(`${join(dir, 'package.json')}:5: JSON ends early (truncated file?)`);
    expect(broken.stderr).toContain(`${join(dir, 'domains.txt')}: binary file, not a text input; skipped`);
    expect(broken.stderr).toContain(`${join(dir, 'missing.json')}: no such file or directory`);
    expect(broken.stderr).toContain(
      `${join(dir, 'hosts.txt')}: file is too large to scan (1.0 GB; the limit is 128 MB)`,
    );

    const mixed = await runCli([
      'check',
      dir,
      'examples/saas-app/package.json',
      '--index',
      copyIndex('test/fixtures/index'),
      '--format',
      'json',
    ]);
    expect(mixed.code).toBe(0);
    expect(JSON.parse(mixed.stdout).providers.length).toBeGreaterThan(0);
  });

  it('exits 3 when no supported input is found, and 2 on a bad flag value', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'downstack-empty-'));
    writeFileSync(join(empty, 'README.md'), '# nothing here\n');
    const none = await runCli(['check', empty]);
    expect(none.code).toBe(3);
    expect(none.stderr).toContain('no supported input found');
    const bad = await runCli(['check', 'examples/saas-app', '--since', 'last tuesday']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since "last tuesday" is not a time');
  });

  it('honours .gitignore and never descends into node_modules', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'downstack-walk-'));
    writeFileSync(join(dir, '.gitignore'), 'vendor/\n');
    for (const sub of ['node_modules/stripe', 'vendor', 'app']) {
      const path = join(dir, sub);
      mkdirSync(path, { recursive: true });
    }
    writeFileSync(join(dir, 'node_modules/stripe/package.json'), '{"name":"stripe","dependencies":{"qs":"1"}}');
    writeFileSync(join(dir, 'vendor/package.json'), '{"dependencies":{"@slack/web-api":"1"}}');
    writeFileSync(join(dir, 'app/package.json'), '{"name":"app","dependencies":{"stripe":"1"}}');
    const run = await runCli(['check', dir, '--format', 'json', '--index', copyIndex('test/fixtures/index')]);
    expect(JSON.parse(run.stdout).inputs.map((i: { file: string }) => i.file)).toEqual([join(dir, 'app/package.json')]);
  });

  it('applies each .gitignore to the paths below it however the folder is named: ".", "./x/", "x/../x", "../x"', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'downstack-walk-'));
    const dir = join(parent, 'repo');
    for (const sub of ['vendor', 'app/generated', 'app/src']) mkdirSync(join(dir, sub), { recursive: true });
    writeFileSync(join(dir, '.gitignore'), 'vendor/\n');
    writeFileSync(join(dir, 'app', '.gitignore'), '/generated\n');
    writeFileSync(join(dir, 'vendor/package.json'), '{"dependencies":{"@slack/web-api":"1"}}');
    writeFileSync(join(dir, 'app/generated/package.json'), '{"dependencies":{"@slack/web-api":"1"}}');
    writeFileSync(join(dir, 'app/src/package.json'), '{"name":"src","dependencies":{"stripe":"1"}}');
    const index = copyIndex('test/fixtures/index');
    const cases: Array<[string, string, string]> = [
      ['.', dir, 'app/src/package.json'],
      ['./repo/', parent, 'repo/app/src/package.json'],
      ['repo/../repo', parent, 'repo/app/src/package.json'],
      ['../app', join(dir, 'vendor'), '../app/src/package.json'],
    ];
    for (const [named, cwd, found] of cases) {
      const run = await runCli(['check', named, '--format', 'json', '--index', index], { cwd });
      expect(run.code, run.stderr).toBe(0);
      expect(
        JSON.parse(run.stdout).inputs.map((i: { file: string }) => i.file),
        named,
      ).toEqual([found]);
    }
  });

  it('lists each provider once in JSON: routes through providers that run on it are in alsoThrough', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'downstack-upstream-'));
    writeFileSync(join(dir, 'Dockerfile'), 'FROM quay.io/cilium/hubble-ui:v0.13.3\n');
    writeFileSync(join(dir, 'domains.txt'), 'ledger.s3.us-east-1.amazonaws.com\ncontroller.twingate.com\ngitlab.com\n');
    const run = await runCli(['check', dir, '--format', 'json', '--index', copyIndex('test/fixtures/index')]);
    const providers: Array<{ id: string; through?: string; components: unknown[]; alsoThrough?: unknown[] }> =
      JSON.parse(run.stdout).providers;
    const ids = providers.map((provider) => provider.id);
    expect(ids).toEqual([...new Set(ids)]);
    const aws = providers.find((provider) => provider.id === 'aws');
    expect(aws?.through).toBeUndefined();
    expect(aws?.components).toEqual([{ name: 'Amazon Simple Storage Service', region: 'us-east-1' }]);
    expect(aws?.alsoThrough).toEqual([
      { through: 'quay', components: [{ name: 'Amazon Relational Database Service' }], reach: 'direct' },
    ]);
    // Reached only through GitLab and Twingate: one entry, the first route as `through`, the other in alsoThrough.
    const google = providers.find((provider) => provider.id === 'google-cloud');
    expect(google?.alsoThrough).toHaveLength(1);
    expect(
      [google, ...((google?.alsoThrough ?? []) as Array<{ through: string }>)].map((route) => route?.through).sort(),
    ).toEqual(['gitlab', 'twingate']);
  });

  it('puts the platforms deploy manifests name in the stack, in the table and in JSON', async () => {
    const args = ['check', 'test/fixtures/platforms', '--index', copyIndex('test/fixtures/index')];
    const table = await runCli(args);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/Render\s+Builds and Deploys, Cron Jobs \(frankfurt\)/);
    expect(table.stdout).toContain('← heroku-button/app.json:5 heroku/Apps');
    const json = JSON.parse((await runCli([...args, '--format', 'json'])).stdout);
    const direct = json.providers.filter((provider: { through?: string }) => !provider.through);
    expect(direct.map((provider: { id: string }) => provider.id).sort()).toEqual([
      'firebase',
      'heroku',
      'netlify',
      'railway',
      'render',
      'vercel',
    ]);
    expect(direct.find((provider: { id: string }) => provider.id === 'vercel').components).toContainEqual({
      name: 'Vercel Functions',
      region: 'fra1',
    });
    // An Expo app.json and one without Heroku's keys are no input.
    expect(json.inputs.map((input: { file: string }) => input.file)).not.toContain(
      'test/fixtures/platforms/expo-app/app.json',
    );
  });

  it('puts Fly.io in the stack from a fly.toml, in its primary region, in the table and in JSON', async () => {
    const args = ['check', 'test/fixtures/fly/http-service/fly.toml', '--index', copyIndex('test/fixtures/index')];
    const table = await runCli(args);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/Fly\.io\s+Fly Proxy \(fra\)/);
    expect(table.stdout).toContain('← fly.toml:6 acme-ledger.fly.dev');
    const json = JSON.parse((await runCli([...args, '--format', 'json'])).stdout);
    expect(json.inputs).toEqual([
      { file: 'test/fixtures/fly/http-service/fly.toml', kind: 'fly.toml', dependencies: 1, errors: [] },
    ]);
    expect(json.providers).toEqual([
      expect.objectContaining({ id: 'fly-io', components: [{ name: 'Fly Proxy', region: 'fra' }] }),
    ]);
  });

  it("leaves out a provider whose own repository this is, and says so (an npm workspace in the provider's scope)", async () => {
    // A real npm lockfile: workspaces @dub/site and @dub/ui, the site using Dub's analytics SDK and Stripe.
    const args = ['check', 'test/fixtures/lockfiles/npm-own-vendor', '--index', copyIndex('test/fixtures/index')];
    const table = await runCli([...args, '--no-resolve']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^ {2}Stripe\b/m);
    expect(table.stdout).not.toMatch(/^ {2}Dub\b/m);
    expect(table.stdout).toContain('Left out: Dub — this is its own repository (@dub/site shares its scope @dub)');
    const json = JSON.parse((await runCli([...args, '--no-resolve', '--format', 'json'])).stdout);
    expect(json.providers.map((provider: { id: string }) => provider.id)).toEqual(['stripe']);
    expect(json.ownProviders).toEqual([{ id: 'dub', name: 'Dub', scope: '@dub', workspace: '@dub/site' }]);
  });
});
