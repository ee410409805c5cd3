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
import { yarnLockParser } from './yarn-lock.js';

export const PARSERS: readonly Parser[] = [
  terraformPlanParser,
  bunLockParser,
  npmLockParser,
  npmShrinkwrapParser,
  pnpmLockParser,
  yarnLockParser,
  bunLockbParser,
  packageJsonParser,
  terraformLockParser,
  terraformProvidersTextParser,
  terraformParser,
  githubWorkflowParser,
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
