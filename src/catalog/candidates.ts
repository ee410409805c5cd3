// Unmatched dependencies that look like a vendor's SDK or Terraform provider: listed as "not in catalog"
// so a user sees the gap (and can contribute the provider) instead of trusting a silent "no exposure".
import type { Dependency } from '../model.js';
import { LOCAL_PROVIDERS, providerSource, providerSourceKeys } from '../terraform-names.js';

// Vendors name their SDKs `…-sdk`, `…-node`, `@vendor/node`; "client" and "api" also name ORMs and local tools.
const SDK_NAME = /(^|[-/.])sdk(-|$)|-node$|^@[^/]+\/(node|sdk|node-sdk|server-sdk|js-sdk)$/i;
// Scopes and names of tooling that match the pattern but never call a hosted service.
const TOOLING =
  /^(@types\/|@babel\/|@eslint\/|@typescript-eslint\/|@vitest\/|@jest\/|@rollup\/|@esbuild\/|@swc\/|@smithy\/|@opentelemetry\/|@grpc\/|@protobufjs\/|eslint-|babel-|rollup-|webpack-|vite-|jest-|prettier-|postcss-|@vue\/|@angular\/|@nestjs\/|@nuxt\/|@sveltejs\/)|^(node-fetch|node-gyp|cross-fetch|whatwg-fetch|isomorphic-fetch|openapi-.*|graphql-.*|.*-types)$/i;

/**
 * The other registries: a declared package whose name carries `sdk` as a word (`acme-sdk`, `github.com/acme/sdk-go`,
 * `com.acme:acme-java-sdk`, `Acme.Sdk`), less the build and telemetry toolkits that are named so but call no vendor.
 */
const OTHER_SDK_NAME = /(^|[-_./:])sdk([-_./]|$)|sdk-?go$|sdk$/i;
const OTHER_TOOLING =
  /^(Microsoft\.NET\.Sdk|Microsoft\.Build|opentelemetry|io\.opentelemetry|go\.opentelemetry\.io|github\.com\/open-telemetry|github\.com\/open-feature|dev\.openfeature|google\.golang\.org|github\.com\/golang|mypy|types-|grpc|protobuf)/i;
const OTHER_REGISTRIES = new Set(['pypi', 'go', 'rubygems', 'maven', 'nuget', 'composer', 'cargo']);

export function notInCatalog(unmatched: Dependency[]): string[] {
  const names = new Set<string>();
  // Terraform sources are case-insensitive: lock files and plans write `twingate/twingate` for `Twingate/twingate`.
  const terraform = new Map<string, string>();
  for (const dependency of unmatched) {
    if (dependency.ecosystem === 'terraform-provider') {
      const key = providerSourceKeys(dependency.name)[0] as string;
      if (LOCAL_PROVIDERS.has(key) || LOCAL_PROVIDERS.has(`hashicorp/${key}`)) continue;
      const known = terraform.get(key);
      if (known === undefined || (known === known.toLowerCase() && dependency.name !== dependency.name.toLowerCase()))
        terraform.set(key, dependency.name);
    } else if (
      dependency.ecosystem === 'npm' &&
      dependency.direct &&
      SDK_NAME.test(dependency.name) &&
      !TOOLING.test(dependency.name)
    )
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
