import { describe, expect, it } from 'vitest';
import { notInCatalog } from '../../src/catalog/candidates.js';
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
});
