// How each provider reaches the stack (issue 11), through the real binary on a workspace monorepo whose lockfile npm
// wrote: Stripe is declared by a workspace package the web app uses (direct), Upstash comes with a third-party kit
// (transitive), Slack and Vercel only through the kit's optional and peer dependencies, SendGrid only as a root dev
// dependency. Only direct providers' incidents are replayed and gated on, unless --reach (or its env and config) widens.
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/catalog.js';
import { runCli } from '../helpers/cli.js';

const STACK = 'test/fixtures/lockfiles/npm-reach';
const AUGUST = ['--since', '2021-08-01', '--until', '2021-08-31T23:59Z', '--no-snapshot', '--no-sync'];

function incident(provider: string, id: string, startedAt: string, resolvedAt: string | null) {
  return {
    provider,
    id,
    title: `${provider} incident`,
    url: `https://status.example/${provider}/${id}`,
    status: resolvedAt ? 'resolved' : 'investigating',
    impact: 'major',
    components: [],
    regions: [],
    startedAt,
    resolvedAt,
    updates: [],
    source: 'fixture',
  };
}

/** Stripe had a resolved incident; each provider outside the default reach has one still open. */
function index(): string {
  const dir = tempDir();
  const write = (provider: string, incidents: unknown[]) =>
    writeFileSync(join(dir, `${provider}.json`), JSON.stringify({ schemaVersion: 1, provider, incidents }));
  write('stripe', [incident('stripe', 'stripe-aug', '2021-08-05T10:00:00Z', '2021-08-05T11:00:00Z')]);
  write('upstash', [incident('upstash', 'upstash-open', '2021-08-30T10:00:00Z', null)]);
  write('slack', [incident('slack', 'slack-open', '2021-08-29T10:00:00Z', null)]);
  write('sendgrid', [incident('sendgrid', 'sendgrid-open', '2021-08-28T10:00:00Z', null)]);
  return dir;
}

interface Json {
  reach: string;
  providers: Array<{ id: string; reach: string; evidence: Array<{ name: string; via: string[] }> }>;
  findings: Array<{ provider: string; reach: string; incident: { id: string } }>;
  beyondReach: Array<{ provider: string; reach: string; incident: { id: string } }>;
  replay: Array<{ providers: string[] }>;
}

async function json(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; report: Json }> {
  const run = await runCli(['check', ...args, '--format', 'json'], { env });
  expect(run.stdout, run.stderr).not.toBe('');
  return { code: run.code, report: JSON.parse(run.stdout) };
}

describe('reach through the binary (npm workspaces, a third-party kit, optional, peer and dev edges)', () => {
  it('gives each provider the best way it reaches the stack, with the chain that gives it', async () => {
    const { report } = await json([STACK, '--index', index(), ...AUGUST]);
    const reach = Object.fromEntries(report.providers.map((provider) => [provider.id, provider.reach]));
    expect(reach).toEqual({
      stripe: 'direct',
      upstash: 'transitive',
      slack: 'optional',
      vercel: 'optional',
      sendgrid: 'dev',
    });
    const upstash = report.providers.find((provider) => provider.id === 'upstash');
    expect(upstash?.evidence[0]?.via).toEqual(['@acme/web', 'vendor-kit', '@upstash/redis']);
  });

  it('replays and gates on direct providers only by default; the others are listed apart in JSON', async () => {
    const { code, report } = await json([STACK, '--index', index(), ...AUGUST, '--fail-on', 'active']);
    expect(code).toBe(0);
    expect(report.reach).toBe('direct');
    expect(report.findings.map((finding) => finding.incident.id)).toEqual(['stripe-aug']);
    expect(report.beyondReach.map((finding) => [finding.incident.id, finding.reach]).sort()).toEqual([
      ['sendgrid-open', 'dev'],
      ['slack-open', 'optional'],
      ['upstash-open', 'transitive'],
    ]);
    expect(report.replay.flatMap((band) => band.providers)).toEqual(['stripe']);
  });

  it('widens with --reach, DOWNSTACK_REACH and .downstack.yml reach:, in that order', async () => {
    const transitive = await json([
      STACK,
      '--index',
      index(),
      ...AUGUST,
      '--fail-on',
      'active',
      '--reach',
      'transitive',
    ]);
    expect(transitive.code).toBe(1);
    expect(transitive.report.findings.map((finding) => finding.incident.id).sort()).toEqual([
      'stripe-aug',
      'upstash-open',
    ]);

    const all = await json([STACK, '--index', index(), ...AUGUST], { DOWNSTACK_REACH: 'all' });
    expect(all.report.reach).toBe('all');
    expect(all.report.beyondReach).toEqual([]);
    expect(all.report.findings).toHaveLength(4);

    const configured = tempDir('downstack-reach-stack-');
    cpSync(STACK, configured, { recursive: true });
    writeFileSync(join(configured, '.downstack.yml'), 'reach: transitive\n');
    const fromConfig = await json([configured, '--index', index(), ...AUGUST]);
    expect(fromConfig.report.reach).toBe('transitive');
    // The command line wins over the file.
    const overridden = await json([configured, '--index', index(), ...AUGUST, '--reach', 'direct']);
    expect(overridden.report.reach).toBe('direct');

    const bad = await runCli(['check', STACK, '--index', index(), ...AUGUST], { env: { DOWNSTACK_REACH: 'some' } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('DOWNSTACK_REACH "some" must be one of: direct, transitive, all');
  });

  it('lists providers outside the reach in their own table sections, naming the library that brings each', async () => {
    const run = await runCli(['check', STACK, '--index', index(), ...AUGUST]);
    expect(run.stdout).toMatch(
      /^downstack {2}1 provider from 1 input in \S+ \(\d+ dependencies\) {2}· {2}\+4 only through/,
    );
    const [main, rest] = run.stdout.split('Also in the dependency tree, through libraries');
    expect(main).toContain('Stripe');
    expect(main).not.toContain('Upstash');
    expect(rest).toContain('Upstash — @upstash/redis via vendor-kit');
    expect(rest).toContain('Slack (optional) — @slack/webhook via vendor-kit');
    expect(rest).toContain('Vercel (optional) — @vercel/analytics via vendor-kit');
    expect(rest?.split('Dev only')[1]).toContain('Twilio SendGrid — nodemailer-sendgrid');
    expect(run.stdout).toContain('3 incidents of the providers above are left out');
    expect(run.stdout.split('What to replay')[1]).not.toMatch(/Upstash|Slack|SendGrid/);
  });

  it('keeps findings outside the reach out of SARIF, Markdown and GitHub annotations', async () => {
    for (const format of ['sarif', 'markdown', 'github']) {
      const run = await runCli(['check', STACK, '--index', index(), ...AUGUST, '--format', format]);
      expect(run.stdout, format).toContain('stripe-aug');
      expect(run.stdout, format).not.toMatch(/upstash-open|slack-open|sendgrid-open/);
    }
  });
});

describe('reach with pnpm, and SDK helpers that do not widen a provider', () => {
  it('reads the same reaches from the pnpm lockfile of the same monorepo (a tarball is third-party, a workspace is ours)', async () => {
    const { report } = await json(['test/fixtures/lockfiles/pnpm-reach', '--index', index(), ...AUGUST]);
    expect(Object.fromEntries(report.providers.map((provider) => [provider.id, provider.reach]))).toEqual({
      stripe: 'direct',
      upstash: 'transitive',
      slack: 'optional',
      vercel: 'optional',
      sendgrid: 'dev',
    });
  });

  it('says AWS is talked to, not that every AWS component is used, when only credential and signing packages are there', async () => {
    const stack = 'test/fixtures/lockfiles/npm-aws-helpers';
    const run = await runCli(['check', stack, '--index', tempDir(), '--format', 'json', '--no-snapshot']);
    const aws = JSON.parse(run.stdout).providers.find((provider: { id: string }) => provider.id === 'aws');
    // The service clients the credential chain pulls in (STS, SSO, Cognito Identity) are its machinery, not services.
    expect(aws).toMatchObject({ reach: 'direct', helpersOnly: true, components: [] });
    expect(aws.wholeProvider).toBeUndefined();
    const table = await runCli(['check', stack, '--index', tempDir(), '--no-snapshot']);
    expect(table.stdout).toContain('talks to it (auth, signing or transport packages only: no component known)');
    expect(table.stdout).not.toContain('all components');
  });
});
