import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const POLYGLOT = 'test/fixtures/ecosystems/polyglot';

interface CheckJson {
  inputs: Array<{
    file: string;
    kind: string;
    dependencies: number;
    errors: Array<{ line?: number; message: string }>;
  }>;
  providers: Array<{
    id: string;
    components: Array<{ name: string; region?: string }>;
    evidence: Array<{ ecosystem: string; name: string; file: string; line?: number }>;
  }>;
}

const checkJson = async (path: string, input?: string): Promise<CheckJson> => {
  const run = await runCli(['check', path, '--format', 'json', '--no-resolve'], input === undefined ? {} : { input });
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as CheckJson;
};

describe('a polyglot repository through the binary', () => {
  it('reads every ecosystem and maps each SDK, image and action to its provider and component', async () => {
    const report = await checkJson(POLYGLOT);
    expect(new Set(report.inputs.map((input) => input.kind))).toEqual(
      new Set([
        'requirements.txt',
        'poetry.lock',
        'uv.lock',
        'Pipfile.lock',
        'go.mod',
        'Gemfile.lock',
        'pom.xml',
        'build.gradle',
        'libs.versions.toml',
        'gradle.lockfile',
        'csproj',
        'packages.lock.json',
        'composer.lock',
        'Cargo.lock',
        'Dockerfile',
        'docker-compose',
        'gitlab-ci',
        'github-workflow',
        'kubernetes',
      ]),
    );
    // The lockfiles replace the pyproject.toml they lock.
    expect(report.inputs.filter((input) => input.kind === 'pyproject.toml')).toEqual([]);
    const provider = (id: string) => report.providers.find((entry) => entry.id === id);
    const stripeEcosystems = new Set(provider('stripe')?.evidence.map((dependency) => dependency.ecosystem));
    expect(stripeEcosystems).toEqual(new Set(['pypi', 'maven', 'go', 'composer', 'rubygems']));
    const aws = provider('aws');
    expect(aws?.components).toEqual(
      expect.arrayContaining([
        { name: 'Amazon Elastic Container Registry', region: 'eu-west-1' },
        { name: 'Amazon Simple Queue Service' },
        { name: 'Amazon DynamoDB' },
        { name: 'AWS Security Token Service' },
      ]),
    );
    expect(provider('google-cloud')?.components).toEqual(
      expect.arrayContaining([
        { name: 'Artifact Registry', region: 'us-central1' },
        { name: 'Artifact Registry', region: 'europe-west4' },
        { name: 'Google Cloud Storage' },
      ]),
    );
    expect(
      provider('azure')
        ?.components.map((component) => component.name)
        .sort(),
    ).toEqual(['Container Registry', 'Microsoft Entra ID', 'Storage Accounts']);
    expect(
      provider('github')
        ?.components.map((component) => component.name)
        .sort(),
    ).toEqual(['Actions', 'Packages']);
    expect(provider('gitlab')?.components.map((component) => component.name)).toContain(
      'CI/CD - Hosted runners on Linux',
    );
    for (const id of [
      'sendgrid',
      'twilio',
      'openai',
      'pinecone',
      'mailchimp',
      'quay',
      'docker-hub',
      'firebase',
      'sentry',
    ])
      expect(provider(id), id).toBeDefined();
    // Generic clients (redis, psycopg, StackExchange.Redis, go-redis, pg) name no provider.
    expect(provider('redis-cloud')).toBeUndefined();
  });

  it('points the table at the line that declares each piece of evidence, whatever its ecosystem', async () => {
    const run = await runCli(['check', POLYGLOT, '--no-resolve']);
    expect(run.code, run.stderr).toBe(0);
    // Paths are relative to the scanned folder, which the header names; a package is listed once, the other places
    // counted (explain lists them all, below).
    expect(run.stdout).toContain(`from 21 inputs in ${POLYGLOT} (`);
    expect(run.stdout).toContain('← api/requirements.in:3 stripe\n');
    expect(run.stdout).toContain('← billing/pom.xml:41 com.stripe:stripe-java\n');
    expect(run.stdout).toContain('… and 2 more in 2 more places: `downstack explain stripe`');
    expect(run.stdout).toContain('← dotnet/Api/Api.csproj:12 SendGrid');
    expect(run.stdout).toContain('← docker-compose.yml:11 quay.io/acme/search:1.2');
  });

  it('explains a provider found in several ecosystems: every chain, with file and line', async () => {
    const run = await runCli(['explain', 'stripe', POLYGLOT, '--no-resolve']);
    expect(run.code, run.stderr).toBe(0);
    for (const line of [
      'requirements.txt → stripe@9.1.0  [direct]  (line 35)',
      'com.acme:billing → com.stripe:stripe-java@25.3.0  [direct]  (line 41)',
      'github.com/acme/gateway → github.com/stripe/stripe-go/v76@v76.25.0  [direct]  (line 13)',
      'acme/storefront → stripe/stripe-php@v14.5.0  [direct]  (line 60)',
      'web → stripe@11.1.0  [direct]  (line 46)',
    ])
      expect(run.stdout).toContain(line);
    const sentry = (await runCli(['explain', 'sentry', POLYGLOT, '--no-resolve'])).stdout;
    expect(sentry).toContain('Api → Sentry.AspNetCore → Sentry.Extensions.Logging → Sentry@4.4.0');
    expect(sentry).toContain('acme-ingest → sentry@0.32.3  [direct]');
    const aws = (await runCli(['explain', 'aws', POLYGLOT, '--no-resolve'])).stdout;
    expect(aws).toContain('deploy.yml → aws-actions/amazon-ecr-login@v2  [direct]  (line 37)');
    expect(aws).toContain(
      'Dockerfile → 123456789012.dkr.ecr.eu-west-1.amazonaws.com/acme/base:2024.05  [direct]  (line 13)',
    );
    expect(aws).toContain('acme-ml → boto3@1.34.120  [direct, optional only]');
  });

  it('recognises each format pasted on standard input', async () => {
    const cases: Array<[string, string, string]> = [
      ['gateway/go.mod', 'go.mod', 'stripe'],
      ['web/Gemfile.lock', 'Gemfile.lock', 'stripe'],
      ['worker/poetry.lock', 'poetry.lock', 'twilio'],
      ['ml/uv.lock', 'uv.lock', 'openai'],
      ['legacy/Pipfile.lock', 'Pipfile.lock', 'mailchimp'],
      ['api/requirements.txt', 'requirements.txt', 'stripe'],
      ['billing/pom.xml', 'pom.xml', 'stripe'],
      ['android/build.gradle.kts', 'build.gradle', 'sentry'],
      ['android/gradle.lockfile', 'gradle.lockfile', 'sentry'],
      ['android/gradle/libs.versions.toml', 'libs.versions.toml', 'mixpanel'],
      ['dotnet/Api/Api.csproj', 'csproj', 'sendgrid'],
      ['dotnet/Api/packages.lock.json', 'packages.lock.json', 'sendgrid'],
      ['php/composer.lock', 'composer.lock', 'stripe'],
      ['rust/Cargo.lock', 'Cargo.lock', 'aws'],
      ['Dockerfile', 'Dockerfile', 'aws'],
    ];
    for (const [file, kind, provider] of cases) {
      const report = await checkJson('-', readFileSync(join(POLYGLOT, file), 'utf8'));
      expect(
        report.inputs.map((input) => input.kind),
        file,
      ).toEqual([kind]);
      expect(
        report.providers.map((entry) => entry.id),
        file,
      ).toContain(provider);
    }
  });

  it('reports damaged files as file:line problems and reads the rest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'downstack-polyglot-'));
    cpSync(POLYGLOT, dir, { recursive: true });
    const poetry = join(dir, 'worker/poetry.lock');
    writeFileSync(poetry, readFileSync(poetry, 'utf8').replace('name = "twilio"', 'name = "twilio'));
    writeFileSync(join(dir, 'billing/pom.xml'), '<project>\n  <dependencies>\n    <dependency>\n</project>\n');
    writeFileSync(join(dir, 'gateway/go.mod'), 'module x\n<<<<<<< HEAD\nrequire a/b v1\n=======\n>>>>>>> main\n');
    const run = await runCli(['check', dir, '--no-resolve']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`${dir}/worker/poetry.lock:96: not valid TOML`);
    expect(run.stderr).toMatch(new RegExp(`${dir}/billing/pom.xml:\\d+: invalid XML`));
    expect(run.stderr).toContain(`${dir}/gateway/go.mod:2: merge conflict marker "<<<<<<<"`);
    // The broken poetry.lock replaces nothing: the pyproject.toml beside it is read instead, Twilio included.
    expect(run.stdout).toContain('Twilio ');
    expect(run.stdout).toContain('Stripe');
    expect(run.stdout).toContain('Twilio SendGrid');
  });
});
