import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/loader.js';
import { buildMatcher, imageRegistry } from '../../src/catalog/matcher.js';
import { packageKey } from '../../src/catalog/package-names.js';
import type { Dependency, Ecosystem } from '../../src/model.js';

const matcher = buildMatcher(loadCatalog());
const match = (ecosystem: Ecosystem, name: string) =>
  matcher.match({ ecosystem, name, file: 'x', direct: true, via: [name] } satisfies Dependency);

describe('package names as each registry compares them', () => {
  it('normalises PyPI names (PEP 503), Go major versions, crate underscores and case', () => {
    expect(packageKey('pypi', 'Google_Cloud.Storage')).toBe('google-cloud-storage');
    expect(packageKey('go', 'github.com/stripe/stripe-go/v76')).toBe('github.com/stripe/stripe-go');
    expect(packageKey('go', 'gopkg.in/DataDog/dd-trace-go.v1')).toBe('gopkg.in/datadog/dd-trace-go');
    expect(packageKey('cargo', 'lambda_runtime')).toBe('lambda-runtime');
    expect(packageKey('nuget', 'AWSSDK.S3')).toBe('awssdk.s3');
  });

  it('matches spellings a registry treats as one package', () => {
    expect(match('pypi', 'Sentry_SDK')).toEqual([{ provider: 'sentry' }]);
    expect(match('nuget', 'awssdk.s3')[0]?.component?.name).toBe('Amazon Simple Storage Service');
    expect(match('go', 'github.com/stripe/stripe-go/v81')[0]).toMatchObject({ provider: 'stripe' });
  });

  it("narrows a family's prefix to the component its per-service name names", () => {
    expect(match('maven', 'software.amazon.awssdk:sqs')).toEqual([
      { provider: 'aws', component: { name: 'Amazon Simple Queue Service' } },
    ]);
    expect(match('maven', 'software.amazon.awssdk:mediaconvert')).toEqual([{ provider: 'aws' }]);
    expect(match('pypi', 'google-cloud-pubsub')).toEqual([
      { provider: 'google-cloud', component: { name: 'Google Cloud Pub/Sub' } },
    ]);
    expect(match('pypi', 'boto3')).toEqual([{ provider: 'aws' }]);
  });
});

describe('container images and CI actions', () => {
  it('reads the registry host of an image reference, Docker Hub when none is written', () => {
    expect(imageRegistry('postgres:16')).toBe('docker.io');
    expect(imageRegistry('bitnami/redis:7')).toBe('docker.io');
    expect(imageRegistry('localhost:5000/app')).toBe('localhost');
    expect(imageRegistry('GHCR.io/acme/api@sha256:abc')).toBe('ghcr.io');
    expect(imageRegistry('docker://ghcr.io/acme/api')).toBe('ghcr.io');
  });

  it('maps registries to components, with the region the host names', () => {
    expect(match('container-image', '123456789012.dkr.ecr.ap-southeast-2.amazonaws.com/api:1')).toEqual([
      { provider: 'aws', component: { name: 'Amazon Elastic Container Registry', region: 'ap-southeast-2' } },
    ]);
    expect(match('container-image', 'asia-northeast1-docker.pkg.dev/p/r/i')).toEqual([
      { provider: 'google-cloud', component: { name: 'Artifact Registry', region: 'asia-northeast1' } },
    ]);
    expect(match('container-image', 'ghcr.io/acme/api')[0]?.component?.name).toBe('Packages');
    expect(match('container-image', 'registry.acme.internal/api')).toEqual([]);
  });

  it('maps actions by owner/repo without regard to case, and GitHub-hosted runner labels', () => {
    expect(match('ci-action', 'Actions/Checkout')[0]).toMatchObject({ provider: 'github' });
    expect(match('ci-action', 'github/codeql-action/init')[0]?.component?.name).toBe('Actions');
    expect(match('ci-action', 'aws-actions/amazon-ecr-login')[0]?.component?.name).toBe(
      'Amazon Elastic Container Registry',
    );
    expect(match('ci-action', 'aws-actions/some-new-action')).toEqual([{ provider: 'aws' }]);
    expect(match('ci-action', 'runner:ubuntu-22.04-arm')[0]?.component?.name).toBe('Actions');
    expect(match('ci-action', 'runner:self-hosted')).toEqual([]);
  });
});
