import { describe, expect, it } from 'vitest';
import {
  looksLikeVendorPackage,
  looksLikeVendorTerraformProvider,
  notInCatalog,
} from '../../src/catalog/candidates.js';
import type { Dependency, Ecosystem } from '../../src/model.js';

const declared = (ecosystem: Ecosystem, name: string, extra: Partial<Dependency> = {}): Dependency => ({
  ecosystem,
  name,
  file: 'f',
  direct: true,
  via: ['app', name],
  kind: 'prod',
  ...extra,
});

describe('SDKs the catalog does not know', () => {
  it('lists declared packages of every registry named as a vendor SDK, with their registry', () => {
    expect(
      notInCatalog([
        declared('pypi', 'globex-sdk'),
        declared('go', 'github.com/globex/globex-sdk-go'),
        declared('maven', 'com.globex:globex-java-sdk'),
        declared('nuget', 'Globex.Sdk'),
        declared('rubygems', 'globex'),
      ]),
    ).toEqual([
      'go:github.com/globex/globex-sdk-go',
      'maven:com.globex:globex-java-sdk',
      'nuget:Globex.Sdk',
      'pypi:globex-sdk',
    ]);
  });

  it('leaves out transitive and dev packages, build SDKs and telemetry toolkits', () => {
    expect(
      notInCatalog([
        declared('pypi', 'globex-sdk', { direct: false, via: ['app', 'x', 'globex-sdk'] }),
        declared('pypi', 'initech-sdk', { kind: 'dev' }),
        declared('nuget', 'Microsoft.NET.Sdk.Functions.Generator'),
        declared('go', 'go.opentelemetry.io/otel/sdk'),
        declared('go', 'github.com/open-feature/go-sdk'),
      ]),
    ).toEqual([]);
  });

  // Real names seen unmatched in 152 mined public apps and in public Terraform repositories (issue 11).
  it("lists npm names marked as a vendor client: sdk as a word, a scope's own client, a service adapter", () => {
    const vendors = [
      '@zilliz/milvus2-sdk-node',
      'cerebras-cloud-sdk',
      '@acme/node',
      '@acme/js-sdk',
      '@ai-sdk/cerebras',
      '@ai-sdk/deepinfra',
      '@ai-sdk/fal',
      '@langchain/nomic',
      '@langchain/yandex',
      '@llamaindex/portkey-ai',
      '@llamaindex/mixedbread',
      '@chat-adapter/discord',
    ];
    expect(vendors.filter((name) => !looksLikeVendorPackage(name))).toEqual([]);
  });

  it("leaves out utilities, tooling, protocol SDKs and the adapter families' own framework parts", () => {
    const utilities = [
      'chrono-node',
      'ts-node',
      'esbuild-node-externals',
      'node-fetch',
      '@modelcontextprotocol/sdk',
      '@opentelemetry/sdk-node',
      'aws-sdk-client-mock',
      '@remix-run/node',
      '@react-router/node',
      '@assistant-ui/react-ai-sdk',
      'ai-sdk-ollama',
      '@ai-sdk/otel',
      '@types/aws-sdk',
      'ai',
      '@ai-sdk/react',
      '@ai-sdk/provider-utils',
      '@ai-sdk/openai-compatible',
      '@langchain/core',
      '@langchain/langgraph',
      '@langchain/langgraph-checkpoint-postgres',
      '@langchain/google-common',
      '@langchain/ollama',
      '@langchain/textsplitters',
      '@llamaindex/env',
      '@llamaindex/workflow',
      '@llamaindex/postgres',
      '@chat-adapter/shared',
      '@chat-adapter/state-redis',
    ];
    expect(utilities.filter((name) => looksLikeVendorPackage(name))).toEqual([]);
  });

  it('lists Terraform providers of a vendor, not the built-in, utility, protocol or self-run ones', () => {
    const listed = (sources: string[]) => sources.filter((source) => looksLikeVendorTerraformProvider(source));
    expect(
      listed([
        'terraform.io/builtin/terraform',
        'registry.terraform.io/hashicorp/http',
        'hashicorp/random',
        'null',
        'hashicorp/local',
        'hashicorp/tls',
        'hashicorp/time',
        'hashicorp/archive',
        'hashicorp/external',
        'hashicorp/cloudinit',
        'hashicorp/kubernetes',
        'hashicorp/helm',
        'anschoewe/curl',
        'gavinbunney/kubectl',
        'kyma-incubator/kind',
        'cyrilgdn/postgresql',
      ]),
    ).toEqual([]);
    expect(listed(['Twingate/twingate', 'registry.terraform.io/hashicorp/tfe', 'grafana/grafana'])).toEqual([
      'Twingate/twingate',
      'registry.terraform.io/hashicorp/tfe',
      'grafana/grafana',
    ]);
  });

  it('lists an unmatched declared adapter of a service, and never a utility the app declares', () => {
    expect(
      notInCatalog([
        declared('npm', '@ai-sdk/cerebras'),
        declared('npm', 'chrono-node'),
        declared('npm', 'ts-node', { kind: 'dev' }),
        declared('npm', '@langchain/core'),
        declared('npm', 'globex-sdk'),
      ]),
    ).toEqual(['@ai-sdk/cerebras', 'globex-sdk']);
  });
});
