// Every input parser, in sniffing order (most specific first). A meta-test checks each file here is registered.
import { azureFunctionJsonParser } from './azure-function-json.js';
import { bunLockbParser, bunLockParser } from './bun-lock.js';
import { domainListParser } from './domain-list.js';
import { flyTomlParser } from './fly-toml.js';
import { githubWorkflowParser } from './github-workflow.js';
import { kubernetesManifestParser } from './kubernetes-manifest.js';
import { netlifyFunctionParser } from './netlify-function.js';
import { netlifyTomlParser } from './netlify-toml.js';
import { npmLockParser, npmShrinkwrapParser } from './npm-lock.js';
import { packageJsonParser } from './package-json.js';
import { pnpmLockParser } from './pnpm-lock.js';
import { renderYamlParser } from './render-yaml.js';
import { serverlessYmlParser } from './serverless-yml.js';
import { terraformParser } from './terraform-config.js';
import { terraformLockParser } from './terraform-lock.js';
import { terraformPlanParser } from './terraform-plan.js';
import { terraformProvidersTextParser } from './terraform-providers-text.js';
import type { Parser } from './types.js';
import { vercelJsonParser } from './vercel-json.js';
import { wranglerConfigParser } from './wrangler-config.js';
import { buildGradleParser } from './build-gradle.js';
import { cargoLockParser } from './cargo-lock.js';
import { composerLockParser } from './composer-lock.js';
import { dockerComposeParser } from './docker-compose.js';
import { dockerfileParser } from './dockerfile.js';
import { gitlabCiParser } from './gitlab-ci.js';
import { gemfileLockParser } from './gemfile-lock.js';
import { goModParser } from './go-mod.js';
import { gradleLockfileParser } from './gradle-lockfile.js';
import { gradleVersionCatalogParser } from './gradle-version-catalog.js';
import { msbuildProjectParser, packagesConfigParser } from './msbuild-project.js';
import { nugetLockParser } from './nuget-lock.js';
import { pipfileLockParser } from './pipfile-lock.js';
import { poetryLockParser } from './poetry-lock.js';
import { pomXmlParser } from './pom-xml.js';
import { pyprojectParser } from './pyproject-toml.js';
import { requirementsTxtParser } from './requirements-txt.js';
import { uvLockParser } from './uv-lock.js';
import { yarnLockParser } from './yarn-lock.js';

export const PARSERS: readonly Parser[] = [
  terraformPlanParser,
  bunLockParser,
  npmLockParser,
  npmShrinkwrapParser,
  pnpmLockParser,
  yarnLockParser,
  bunLockbParser,
  // JSON lockfiles of other registries before package.json, whose sniff would take any "dependencies" map.
  composerLockParser,
  pipfileLockParser,
  nugetLockParser,
  packageJsonParser,
  poetryLockParser,
  uvLockParser,
  cargoLockParser,
  gradleVersionCatalogParser,
  pyprojectParser,
  goModParser,
  gemfileLockParser,
  gradleLockfileParser,
  pomXmlParser,
  msbuildProjectParser,
  packagesConfigParser,
  buildGradleParser,
  dockerfileParser,
  requirementsTxtParser,
  terraformLockParser,
  terraformProvidersTextParser,
  terraformParser,
  githubWorkflowParser,
  gitlabCiParser,
  dockerComposeParser,
  vercelJsonParser,
  netlifyTomlParser,
  flyTomlParser,
  netlifyFunctionParser,
  wranglerConfigParser,
  renderYamlParser,
  serverlessYmlParser,
  azureFunctionJsonParser,
  // Last of the YAML readers: it claims any *.yaml the others did not, and stays quiet when there is no CronJob.
  kubernetesManifestParser,
  domainListParser,
];

/** The parser that claims a path by its name, if any. */
export function parserForPath(path: string): Parser | undefined {
  return PARSERS.find((parser) => parser.matches(path));
}

/** The parser whose format the text looks like (for stdin and unrecognised file names). */
export function parserForText(text: string): Parser | undefined {
  return PARSERS.find((parser) => parser.sniff(text));
}
