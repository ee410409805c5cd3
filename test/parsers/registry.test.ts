// The parser registry against the files on disk, both ways, and its order: a text is claimed by the most
// specific parser that recognises it, so each format's real sample must not be taken by an earlier one.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { entryForPath, loadParsers, PARSERS, parserForText } from '../../src/parsers/index.js';
import type { Parser } from '../../src/parsers/types.js';
import { moduleLoads } from '../helpers/module-loads.js';

const isParser = (value: unknown): value is Parser =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Parser).kind === 'string' &&
  typeof (value as Parser).matches === 'function' &&
  typeof (value as Parser).sniff === 'function' &&
  typeof (value as Parser).parse === 'function';

const MODULES = readdirSync('src/parsers').filter(
  (name) => name.endsWith('.ts') && !['index.ts', 'types.ts'].includes(name),
);

async function exportedParsers(): Promise<Map<string, Parser[]>> {
  const byFile = new Map<string, Parser[]>();
  for (const name of MODULES) {
    const module = (await import(`../../src/parsers/${name.replace(/\.ts$/, '.js')}`)) as Record<string, unknown>;
    byFile.set(name, Object.values(module).filter(isParser));
  }
  return byFile;
}

/** Every file under `dir`, as a scan would name it. */
function fixturePaths(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Names the fixtures lack: per-environment copies, odd cases, Windows separators. */
const ODD_PATHS = [
  'app/fly.staging.toml',
  'docker/Dockerfile.prod',
  'api.Containerfile',
  'compose.override.yml',
  'ci\\.github\\workflows\\deploy.yml',
  '.gitlab/ci/build.yaml',
  'requirements/dev.in',
  'requirements-test.txt',
  'netlify/functions/nightly/index.mts',
  'netlify/functions/hourly.ts',
  'apps/api/railway.json',
  'Some.Project.fsproj',
  'PACKAGES.CONFIG',
  'wrangler.jsonc',
  'settings.gradle.lockfile',
  'buildscript-gradle.lockfile',
  'gems.locked',
  'app.gemfile.lock',
  'infra/prod.tfvars.json',
  'infra/out.tfplan.json',
  'egress.list',
  'corp.domains',
  'HOSTS.CSV',
];

const fixture = (path: string) => readFileSync(`test/fixtures/${path}`, 'utf8');

/** A real sample of every format a text can be recognised as, in the order PARSERS lists their parsers. */
const SAMPLES: Array<[kind: string, text: string]> = [
  ['terraform-plan', fixture('terraform/plan/shop.tfplan.json')],
  ['terraform-plan', fixture('terraform/plan/shop-state.json')],
  ['bun-lock', fixture('lockfiles/bun-workspaces/bun.lock')],
  ['package-lock', fixture('lockfiles/npm-v3-workspaces/package-lock.json')],
  ['package-lock', fixture('lockfiles/npm-v1-local-package/package-lock.json')],
  ['pnpm-lock', fixture('lockfiles/pnpm-v9-workspaces/pnpm-lock.yaml')],
  ['pnpm-lock', fixture('lockfiles/pnpm-v6-workspaces/pnpm-lock.yaml')],
  ['yarn-lock', fixture('lockfiles/yarn-v1-workspaces/yarn.lock')],
  ['yarn-lock', fixture('lockfiles/yarn-berry-workspaces/yarn.lock')],
  ['composer.lock', fixture('ecosystems/polyglot/php/composer.lock')],
  ['composer.lock', fixture('ecosystems/composer-real/composer.lock')],
  ['Pipfile.lock', fixture('ecosystems/polyglot/legacy/Pipfile.lock')],
  ['packages.lock.json', fixture('ecosystems/polyglot/dotnet/Api/packages.lock.json')],
  ['package.json', fixture('lockfiles/npm-v3-workspaces/package.json')],
  ['package.json', fixture('package-json/all-sections.json')],
  ['poetry.lock', fixture('ecosystems/polyglot/worker/poetry.lock')],
  ['poetry.lock', fixture('ecosystems/poetry-real/poetry.lock')],
  ['uv.lock', fixture('ecosystems/polyglot/ml/uv.lock')],
  ['Cargo.lock', fixture('ecosystems/polyglot/rust/Cargo.lock')],
  ['libs.versions.toml', fixture('ecosystems/polyglot/android/gradle/libs.versions.toml')],
  ['pyproject.toml', fixture('ecosystems/polyglot/ml/pyproject.toml')],
  ['pyproject.toml', fixture('ecosystems/polyglot/worker/pyproject.toml')],
  ['go.mod', fixture('ecosystems/polyglot/gateway/go.mod')],
  ['go.mod', fixture('ecosystems/go-real/go.mod')],
  ['Gemfile.lock', fixture('ecosystems/polyglot/web/Gemfile.lock')],
  ['Gemfile.lock', fixture('ecosystems/bundler-real/Gemfile.lock')],
  ['gradle.lockfile', fixture('ecosystems/polyglot/android/gradle.lockfile')],
  ['pom.xml', fixture('ecosystems/polyglot/billing/pom.xml')],
  ['csproj', fixture('ecosystems/polyglot/dotnet/Api/Api.csproj')],
  ['packages.config', fixture('ecosystems/dotnet-framework/packages.config')],
  ['build.gradle', fixture('ecosystems/polyglot/android/build.gradle.kts')],
  ['Dockerfile', fixture('ecosystems/polyglot/Dockerfile')],
  ['requirements.txt', fixture('ecosystems/polyglot/api/requirements.txt')],
  ['terraform-lock', fixture('terraform/configs/root-with-modules/.terraform.lock.hcl')],
  ['terraform-providers', fixture('terraform/plan/providers-output.txt')],
  ['terraform', fixture('terraform/configs/root-with-modules/main.tf')],
  ['terraform', fixture('terraform/configs/json-config/main.tf.json')],
  ['github-workflow', fixture('jobs/workflow-images/.github/workflows/db-maintenance.yml')],
  ['github-workflow', fixture('ecosystems/polyglot/.github/workflows/deploy.yml')],
  ['gitlab-ci', fixture('ecosystems/polyglot/.gitlab-ci.yml')],
  ['docker-compose', fixture('ecosystems/polyglot/docker-compose.yml')],
  ['kubernetes', fixture('jobs/repo/k8s/cronjobs.yaml')],
  ['kubernetes', fixture('ecosystems/polyglot/k8s/deployment.yaml')],
  ['domains', fixture('domains/mixed.txt')],
];

/** Formats read only from a file of their own name: a pasted text is never taken for one of them. */
const NAME_ONLY = [
  'app.json',
  'bun-lockb',
  'firebase.json',
  'fly.toml',
  'function.json',
  'netlify-function',
  'netlify.toml',
  'npm-shrinkwrap',
  'railway',
  'render.yaml',
  'serverless.yml',
  'vercel.json',
  'wrangler',
];

describe('parser registry', () => {
  it('registers every parser a file in src/parsers exports, and each such file exports at least one', async () => {
    const loaded = await loadParsers();
    for (const [file, parsers] of await exportedParsers()) {
      expect(parsers.length, `${file} exports no parser`).toBeGreaterThan(0);
      for (const parser of parsers) expect(loaded, `${file}: ${parser.kind} is not in PARSERS`).toContain(parser);
    }
  });

  it('exports every registered parser from a file in src/parsers, once', async () => {
    const exported = [...(await exportedParsers()).values()].flat();
    const loaded = await loadParsers();
    for (const parser of loaded) expect(exported.filter((candidate) => candidate === parser)).toHaveLength(1);
    expect(new Set(loaded.map((parser) => parser.kind)).size).toBe(loaded.length);
  });

  it('claims nothing for a file that is no input, and recognises nothing in an empty text', async () => {
    for (const parser of await loadParsers()) {
      expect(parser.matches('/nonexistent/README.md')).toBe(false);
      expect(parser.sniff('')).toBe(false);
    }
    expect(entryForPath('src/index.ts')).toBeUndefined();
  });

  it("names each entry with its parser's kind, and claims by name exactly the paths the parser claims", async () => {
    const loaded = await loadParsers();
    const paths = [...fixturePaths('test/fixtures'), ...fixturePaths('examples'), ...ODD_PATHS];
    expect(paths.length).toBeGreaterThan(200);
    PARSERS.forEach((entry, i) => {
      const parser = loaded[i] as Parser;
      expect(entry.kind).toBe(parser.kind);
      for (const path of paths) expect(entry.matches(path), `${entry.kind} on ${path}`).toBe(parser.matches(path));
    });
  });

  it('loads no parser module while it claims files by name', () => {
    const code = `
      const { entryForPath } = await import('./dist/parsers/index.js');
      const found = ['package-lock.json', 'main.tf', 'k8s/a.yaml', 'README.md'].map((p) => entryForPath(p)?.kind ?? null);
      console.log(JSON.stringify(found));`;
    const run = moduleLoads(['--input-type=module', '-e', code]);
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(['package-lock', 'terraform', 'kubernetes', null]);
    expect(run.modules.some((url) => url.endsWith('/dist/parsers/index.js'))).toBe(true);
    expect(run.modules.filter((url) => /\/dist\/parsers\/(?!index\.js|types\.js)/.test(url))).toEqual([]);
  });

  it('sniffs each real sample as its own format: no parser earlier in the order takes it', async () => {
    const loaded = await loadParsers();
    for (const [kind, text] of SAMPLES) {
      const found = await parserForText(text);
      expect(found?.kind, `a ${kind} sample was sniffed as ${found?.kind}`).toBe(kind);
    }
    // Every other parser is claimed by its file name alone and recognises no text; a new one needs a sample above.
    const withoutSample = loaded.filter((parser) => !SAMPLES.some(([kind]) => kind === parser.kind));
    expect(withoutSample.map((parser) => parser.kind).sort()).toEqual(NAME_ONLY);
    for (const [, text] of SAMPLES) for (const parser of withoutSample) expect(parser.sniff(text)).toBe(false);
  });

  it('lists the JSON and YAML lockfiles before package.json and Terraform, and the domain list last', () => {
    const order = PARSERS.map((parser) => parser.kind);
    const listedBefore = (a: string, b: string) =>
      expect(order.indexOf(a), `${a} before ${b}`).toBeLessThan(order.indexOf(b));
    for (const lockfile of [
      'terraform-plan',
      'bun-lock',
      'package-lock',
      'pnpm-lock',
      'yarn-lock',
      'composer.lock',
      'Pipfile.lock',
      'packages.lock.json',
    ])
      listedBefore(lockfile, 'package.json');
    listedBefore('terraform-lock', 'terraform');
    listedBefore('terraform-providers', 'terraform');
    expect(order.at(-1)).toBe('domains');
  });
});
