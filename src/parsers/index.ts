// Every input parser, in sniffing order (most specific first). A meta-test checks each file here is registered.
//
// The registry holds what a walk needs to claim a file — the kind and a path test — and loads the parser's module
// (with its YAML, TOML, XML or HCL library) only when a file of that kind is read, so a scan of a Node app never
// loads the Terraform, Maven or Kubernetes readers. Each path test here mirrors the parser's own `matches`; the
// registry test holds the two to the same answers.
import { basename, type Parser } from './types.js';

export interface ParserEntry {
  /** The parser's `kind`. */
  kind: string;
  /** Does this path concern the parser? From the path alone, without loading its module. */
  matches(path: string): boolean;
  /** The parser itself, its module imported on first use. */
  load(): Promise<Parser>;
}

const named =
  (...names: string[]) =>
  (path: string) =>
    names.includes(basename(path));
const nameTest = (pattern: RegExp) => (path: string) => pattern.test(basename(path));
const never = () => false;

/** One entry; `load` is memoised so every caller gets the same parser object. */
function entry(kind: string, matches: (path: string) => boolean, load: () => Promise<Parser>): ParserEntry {
  let loaded: Promise<Parser> | undefined;
  return { kind, matches, load: () => (loaded ??= load()) };
}

export const PARSERS: readonly ParserEntry[] = [
  entry(
    'terraform-plan',
    nameTest(/(^|[.-])(tfplan|tfstate)\.json$|^(tf)?plan\.json$|^terraform-(plan|show|state)\.json$/i),
    async () => (await import('./terraform-plan.js')).terraformPlanParser,
  ),
  entry('bun-lock', named('bun.lock'), async () => (await import('./bun-lock.js')).bunLockParser),
  entry('package-lock', named('package-lock.json'), async () => (await import('./npm-lock.js')).npmLockParser),
  entry(
    'npm-shrinkwrap',
    named('npm-shrinkwrap.json'),
    async () => (await import('./npm-lock.js')).npmShrinkwrapParser,
  ),
  entry('pnpm-lock', named('pnpm-lock.yaml'), async () => (await import('./pnpm-lock.js')).pnpmLockParser),
  entry('yarn-lock', named('yarn.lock'), async () => (await import('./yarn-lock.js')).yarnLockParser),
  entry('bun-lockb', named('bun.lockb'), async () => (await import('./bun-lock.js')).bunLockbParser),
  // JSON lockfiles of other registries before package.json, whose sniff would take any "dependencies" map.
  entry('composer.lock', named('composer.lock'), async () => (await import('./composer-lock.js')).composerLockParser),
  entry('Pipfile.lock', named('Pipfile.lock'), async () => (await import('./pipfile-lock.js')).pipfileLockParser),
  entry(
    'packages.lock.json',
    named('packages.lock.json'),
    async () => (await import('./nuget-lock.js')).nugetLockParser,
  ),
  entry('package.json', named('package.json'), async () => (await import('./package-json.js')).packageJsonParser),
  entry('poetry.lock', named('poetry.lock'), async () => (await import('./poetry-lock.js')).poetryLockParser),
  entry('uv.lock', named('uv.lock'), async () => (await import('./uv-lock.js')).uvLockParser),
  entry('Cargo.lock', named('Cargo.lock'), async () => (await import('./cargo-lock.js')).cargoLockParser),
  entry(
    'libs.versions.toml',
    nameTest(/\.versions\.toml$/),
    async () => (await import('./gradle-version-catalog.js')).gradleVersionCatalogParser,
  ),
  entry('pyproject.toml', named('pyproject.toml'), async () => (await import('./pyproject-toml.js')).pyprojectParser),
  entry('go.mod', named('go.mod'), async () => (await import('./go-mod.js')).goModParser),
  entry(
    'Gemfile.lock',
    nameTest(/^(Gemfile|gems\.rb|.+\.gemfile)\.lock$|^gems\.locked$/),
    async () => (await import('./gemfile-lock.js')).gemfileLockParser,
  ),
  entry(
    'gradle.lockfile',
    nameTest(/^(.+\.)?gradle\.lockfile$|^buildscript-gradle\.lockfile$/),
    async () => (await import('./gradle-lockfile.js')).gradleLockfileParser,
  ),
  entry('pom.xml', named('pom.xml'), async () => (await import('./pom-xml.js')).pomXmlParser),
  entry(
    'csproj',
    nameTest(/\.(cs|fs|vb)proj$/i),
    async () => (await import('./msbuild-project.js')).msbuildProjectParser,
  ),
  entry(
    'packages.config',
    (path) => basename(path).toLowerCase() === 'packages.config',
    async () => (await import('./msbuild-project.js')).packagesConfigParser,
  ),
  entry(
    'build.gradle',
    nameTest(/^build\.gradle(\.kts)?$/),
    async () => (await import('./build-gradle.js')).buildGradleParser,
  ),
  entry(
    'Dockerfile',
    nameTest(/^(Dockerfile|Containerfile)([.-].+)?$|\.(Dockerfile|Containerfile)$/i),
    async () => (await import('./dockerfile.js')).dockerfileParser,
  ),
  entry(
    'requirements.txt',
    (path) =>
      /^(.+[-_.])?requirements([-_.].+)?\.(txt|in)$/i.test(basename(path)) ||
      (/\.(txt|in)$/i.test(basename(path)) && /(^|[\\/])requirements[\\/][^\\/]+$/i.test(path)),
    async () => (await import('./requirements-txt.js')).requirementsTxtParser,
  ),
  entry(
    'terraform-lock',
    named('.terraform.lock.hcl'),
    async () => (await import('./terraform-lock.js')).terraformLockParser,
  ),
  entry(
    'terraform-providers',
    never,
    async () => (await import('./terraform-providers-text.js')).terraformProvidersTextParser,
  ),
  entry(
    'terraform',
    (path) => /\.(tf|tf\.json|tfvars|tfvars\.json)$/.test(basename(path)),
    async () => (await import('./terraform-config.js')).terraformParser,
  ),
  entry(
    'github-workflow',
    (path) => /(^|[/\\])\.github[/\\]workflows[/\\][^/\\]+\.ya?ml$/.test(path),
    async () => (await import('./github-workflow.js')).githubWorkflowParser,
  ),
  entry(
    'gitlab-ci',
    (path) => /^\.gitlab-ci\.ya?ml$/.test(basename(path)) || /(^|[/\\])\.gitlab[/\\]ci[/\\].+\.ya?ml$/.test(path),
    async () => (await import('./gitlab-ci.js')).gitlabCiParser,
  ),
  entry(
    'docker-compose',
    nameTest(/^(docker-)?compose([.-][\w.-]+)?\.ya?ml$/i),
    async () => (await import('./docker-compose.js')).dockerComposeParser,
  ),
  entry('vercel.json', named('vercel.json'), async () => (await import('./vercel-json.js')).vercelJsonParser),
  entry('netlify.toml', named('netlify.toml'), async () => (await import('./netlify-toml.js')).netlifyTomlParser),
  entry('fly.toml', nameTest(/^fly(\.[\w-]+)?\.toml$/), async () => (await import('./fly-toml.js')).flyTomlParser),
  entry(
    'netlify-function',
    (path) => /(?:^|[/\\])netlify[/\\]functions[/\\](?:([^/\\]+)[/\\](?:\1|index)|([^/\\]+))\.[mc]?[jt]s$/.test(path),
    async () => (await import('./netlify-function.js')).netlifyFunctionParser,
  ),
  entry(
    'wrangler',
    nameTest(/^wrangler\.(toml|json|jsonc)$/),
    async () => (await import('./wrangler-config.js')).wranglerConfigParser,
  ),
  entry('render.yaml', named('render.yaml'), async () => (await import('./render-yaml.js')).renderYamlParser),
  entry(
    'railway',
    nameTest(/^railway\.(toml|json)$/),
    async () => (await import('./railway-config.js')).railwayConfigParser,
  ),
  entry('firebase.json', named('firebase.json'), async () => (await import('./firebase-json.js')).firebaseJsonParser),
  entry('app.json', named('app.json'), async () => (await import('./heroku-app-json.js')).herokuAppJsonParser),
  entry(
    'serverless.yml',
    nameTest(/^serverless\.ya?ml$/),
    async () => (await import('./serverless-yml.js')).serverlessYmlParser,
  ),
  entry(
    'function.json',
    named('function.json'),
    async () => (await import('./azure-function-json.js')).azureFunctionJsonParser,
  ),
  // Last of the YAML readers: it claims any *.yaml the others did not, and stays quiet when there is no CronJob.
  entry(
    'kubernetes',
    (path) => /\.ya?ml$/i.test(path),
    async () => (await import('./kubernetes-manifest.js')).kubernetesManifestParser,
  ),
  entry(
    'domains',
    nameTest(
      /^(domains?|hosts?|hostnames?|endpoints?|urls?|allowlist|egress)([._-][\w.-]*)?\.(txt|csv|list)$|\.domains$/i,
    ),
    async () => (await import('./domain-list.js')).domainListParser,
  ),
];

/** The registry entry that claims a path by its name, if any (no parser module is loaded). */
export function entryForPath(path: string): ParserEntry | undefined {
  return PARSERS.find((entry) => entry.matches(path));
}

/** The parser that claims a path by its name, if any. */
export async function parserForPath(path: string): Promise<Parser | undefined> {
  return entryForPath(path)?.load();
}

/**
 * The parser whose format the text looks like (for stdin and unrecognised file names): parsers are loaded and asked
 * in sniffing order until one recognises it.
 */
export async function parserForText(text: string): Promise<Parser | undefined> {
  for (const entry of PARSERS) {
    const parser = await entry.load();
    if (parser.sniff(text)) return parser;
  }
  return undefined;
}

/** Every parser, loaded, in sniffing order. */
export async function loadParsers(): Promise<Parser[]> {
  return Promise.all(PARSERS.map((entry) => entry.load()));
}
