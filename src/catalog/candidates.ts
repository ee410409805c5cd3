// Unmatched dependencies that look like a vendor's SDK or Terraform provider: listed as "not in catalog"
// so a user sees the gap (and can contribute the provider) instead of trusting a silent "no exposure".
//
// What makes a name look like a hosted service's SDK, and nothing else (utilities such as chrono-node or ts-node
// carry no such mark):
//   1. the name carries `sdk` as a word (`acme-sdk`, `@acme/sdk`, `@acme/node-sdk`): vendors name their clients so;
//   2. it is a vendor's own client under its scope (`@acme/node`, `@acme/js-sdk`);
//   3. it is a member of an adapter family in which every member wraps one hosted service (`@ai-sdk/cerebras`,
//      `@langchain/nomic`, `@llamaindex/portkey-ai`, `@chat-adapter/discord`), less the family's own framework
//      parts and the adapters to software a team runs itself (Ollama, Postgres, Redis, Chroma).
// A Terraform provider is a candidate unless it runs inside Terraform (the built-in `terraform` provider, HashiCorp's
// local utilities) or names a protocol or a system the team runs itself (http, dns, kubernetes, helm, postgresql),
// whoever publishes it.
import type { Dependency } from '../model.js';
import { LOCAL_PROVIDERS, providerSource, providerSourceKeys } from '../terraform-names.js';

const SDK_NAME = /(^|[-/.])sdk(-|$)|^@[^/]+\/(node|sdk|node-sdk|server-sdk|js-sdk|sdk-js|sdk-node)$/i;
// `ai-sdk` names the Vercel AI SDK, not a vendor's SDK: `@assistant-ui/react-ai-sdk` is a UI binding to it.
const AI_SDK_WORD = /(^|[-/.])ai-sdk(?=-|$)/gi;
// Scopes and names of tooling that match the pattern but never call a hosted service.
const TOOLING =
  /^(@types\/|@babel\/|@eslint\/|@typescript-eslint\/|@vitest\/|@jest\/|@rollup\/|@esbuild\/|@swc\/|@smithy\/|@opentelemetry\/|@grpc\/|@protobufjs\/|@modelcontextprotocol\/|@module-federation\/|@remix-run\/|@react-router\/|@nx\/|@effect\/|@json2csv\/|@vue\/|@angular\/|@nestjs\/|@nuxt\/|@sveltejs\/|eslint-|babel-|rollup-|webpack-|vite-|jest-|prettier-|postcss-)|^(node-fetch|node-gyp|cross-fetch|whatwg-fetch|isomorphic-fetch|openapi-.*|graphql-.*|.*-types)$|(^|[-/])(mock|mocks|test|testing)([-/]|$)/i;

/** Adapter families whose members each call one service, and the members that call none (or a self-run one). */
const ADAPTER_FAMILIES = /^@(ai-sdk|langchain|llamaindex|chat-adapter)\/(.+)$/;
const NOT_A_SERVICE =
  /^(core|react|vue|svelte|solid|rsc|ui|ui-utils|otel|provider|provider-utils|openai-compatible|shared|common|env|workflow|tools|readers|node-parser|textsplitters|classic|community|scripts|protocol|codemod|devtools|valibot|test-server|open-responses|chat-ui|pdf-viewer|mcp|mcp-adapters|langchain|llamaindex|vercel|.*-common|.*-utils|.*-gauth|.*-webauth|langgraph.*|state-.*|ollama|vllm|clip|huggingface-local|node-vfs|redis|postgres|mongodb|sqlite|chroma|milvus|lancedb|excel)$/;

/**
 * The other registries: a declared package whose name carries `sdk` as a word (`acme-sdk`, `github.com/acme/sdk-go`,
 * `com.acme:acme-java-sdk`, `Acme.Sdk`), less the build and telemetry toolkits that are named so but call no vendor.
 */
const OTHER_SDK_NAME = /(^|[-_./:])sdk([-_./]|$)|sdk-?go$|sdk$/i;
const OTHER_TOOLING =
  /^(Microsoft\.NET\.Sdk|Microsoft\.Build|opentelemetry|io\.opentelemetry|go\.opentelemetry\.io|github\.com\/open-telemetry|github\.com\/open-feature|dev\.openfeature|google\.golang\.org|github\.com\/golang|mypy|types-|grpc|protobuf)/i;
const OTHER_REGISTRIES = new Set(['pypi', 'go', 'rubygems', 'maven', 'nuget', 'composer', 'cargo']);

/**
 * Terraform provider types that name a protocol or software a team runs itself, not a vendor's service: whoever
 * publishes them (`hashicorp/http`, `anschoewe/curl`, `gavinbunney/kubectl`, `cyrilgdn/postgresql`).
 */
const SELF_RUN_TERRAFORM_TYPES = new Set([
  'terraform',
  'http',
  'curl',
  'dns',
  'template',
  'kubernetes',
  'kubectl',
  'helm',
  'kind',
  'k3d',
  'docker',
  'ssh',
  'postgresql',
  'mysql',
  'mssql',
  'rabbitmq',
  'vault',
  'consul',
  'nomad',
  'libvirt',
]);

export function looksLikeVendorPackage(name: string): boolean {
  const family = ADAPTER_FAMILIES.exec(name);
  if (family) return !NOT_A_SERVICE.test(family[2] as string);
  return SDK_NAME.test(name.replace(AI_SDK_WORD, '$1')) && !TOOLING.test(name);
}

export function looksLikeVendorTerraformProvider(source: string): boolean {
  const key = providerSourceKeys(source)[0] as string;
  if (LOCAL_PROVIDERS.has(key) || LOCAL_PROVIDERS.has(`hashicorp/${key}`)) return false;
  // `terraform.io/builtin/terraform` is compiled into Terraform itself.
  if (key.startsWith('terraform.io/builtin/')) return false;
  return !SELF_RUN_TERRAFORM_TYPES.has(key.split('/').pop() as string);
}

export function notInCatalog(unmatched: Dependency[]): string[] {
  const names = new Set<string>();
  // Terraform sources are case-insensitive: lock files and plans write `twingate/twingate` for `Twingate/twingate`.
  const terraform = new Map<string, string>();
  for (const dependency of unmatched) {
    if (dependency.ecosystem === 'terraform-provider') {
      if (!looksLikeVendorTerraformProvider(dependency.name)) continue;
      const key = providerSourceKeys(dependency.name)[0] as string;
      const known = terraform.get(key);
      if (known === undefined || (known === known.toLowerCase() && dependency.name !== dependency.name.toLowerCase()))
        terraform.set(key, dependency.name);
    } else if (dependency.ecosystem === 'npm' && dependency.direct && looksLikeVendorPackage(dependency.name))
      names.add(dependency.name);
    else if (
      OTHER_REGISTRIES.has(dependency.ecosystem) &&
      dependency.direct &&
      dependency.kind !== 'dev' &&
      OTHER_SDK_NAME.test(dependency.name) &&
      !OTHER_TOOLING.test(dependency.name)
    )
      names.add(`${dependency.ecosystem}:${dependency.name}`);
  }
  for (const name of terraform.values()) names.add(`terraform:${providerSource(name)}`);
  return [...names].sort();
}
