import { describe, expect, it } from 'vitest';
import { parseGithubWorkflow } from '../../src/parsers/github-workflow.js';
import { parseKubernetesManifests } from '../../src/parsers/kubernetes-manifest.js';
import { polyglot } from '../helpers/ecosystem-fixtures.js';

describe('GitHub workflow dependencies', () => {
  it('lists actions with their refs (not local ones), the registry a docker/login-action step logs in to, hosted runners (matrix included, self-hosted left out), hosted runners (matrix included), service, container and docker:// images', () => {
    const { text, path } = polyglot('.github/workflows/deploy.yml');
    const { dependencies } = parseGithubWorkflow(text, path);
    expect(dependencies.map((d) => [d.ecosystem, d.name, d.version, d.line])).toEqual([
      ['ci-action', 'actions/checkout', 'v4', 21],
      ['ci-action', 'actions/setup-python', 'v5', 22],
      ['ci-action', 'runner:ubuntu-latest', undefined, 15],
      ['ci-action', 'runner:macos-14', undefined, 15],
      ['container-image', 'redis:7', undefined, 19],
      ['ci-action', 'actions/checkout', 'v4', 32],
      ['ci-action', 'aws-actions/configure-aws-credentials', 'e3dd6a429d7300a6a4c196c26e071d42e0343502', 33],
      ['ci-action', 'aws-actions/amazon-ecr-login', 'v2', 37],
      ['container-image', 'ghcr.io/', undefined, 38],
      ['container-image', 'hashicorp/terraform:1.8', undefined, 43],
      ['ci-action', 'runner:ubuntu-24.04', undefined, 29],
      ['container-image', 'public.ecr.aws/docker/library/python:3.12', undefined, 30],
      ['ci-action', 'acme/shared-workflows/.github/workflows/release.yml', 'v3', 48],
      ['ci-action', 'google-github-actions/auth', 'v2', 53],
    ]);
  });
});

describe('registry logins', () => {
  const workflow = [
    'name: images',
    'on: push',
    'env:',
    '  REGISTRY: ghcr.io',
    'jobs:',
    '  push:',
    '    runs-on: self-hosted',
    '    env:',
    '      MIRROR: quay.io',
    '    steps:',
    '      - uses: docker/login-action@v3',
    '        with:',
    `          registry: \${{ env.REGISTRY }}`,
    '      - uses: docker/login-action@v3',
    '        with:',
    `          registry: \${{ env.MIRROR }}`,
    '      - uses: docker/login-action@v3',
    '        with:',
    `          registry: \${{ secrets.PRIVATE_REGISTRY }}`,
    '      - uses: docker/login-action@v3',
    '',
  ].join('\n');

  it("reads a registry named through the workflow's or job's env, and credits no registry it cannot read", () => {
    const { dependencies } = parseGithubWorkflow(workflow, '.github/workflows/images.yml');
    expect(dependencies.map((d) => [d.ecosystem, d.name, d.line])).toEqual([
      ['container-image', 'ghcr.io/', 11],
      ['container-image', 'quay.io/', 14],
      // The login with no registry is Docker Hub's; the one through a secret is nobody's we can tell.
      ['ci-action', 'docker/login-action', 20],
    ]);
  });
});

describe('Kubernetes workload images', () => {
  it("lists every container's image of a Deployment, init containers included, at its line", () => {
    const { text, path } = polyglot('k8s/deployment.yaml');
    const { dependencies, errors } = parseKubernetesManifests(text, path);
    expect(errors).toEqual([]);
    expect(dependencies.map((d) => [d.name, d.line, d.via[0]])).toEqual([
      ['europe-west4-docker.pkg.dev/acme-prod/services/api:1.8.0', 20, 'Deployment/api'],
      ['gcr.io/cloud-sql-connectors/cloud-sql-proxy:2.11.0', 24, 'Deployment/api'],
      ['acmeprod.azurecr.io/acme/migrate:1.8.0', 17, 'Deployment/api'],
    ]);
  });
});
