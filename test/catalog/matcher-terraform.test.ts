import { describe, expect, it } from 'vitest';
import { buildMatcher, exposuresFor } from '../../src/catalog/matcher.js';
import type { Dependency } from '../../src/model.js';
import { terraformCatalog } from '../helpers/terraform-check.js';

const dep = (ecosystem: Dependency['ecosystem'], name: string, region?: string): Dependency => ({
  ecosystem,
  name,
  ...(region ? { region } : {}),
  file: 'main.tf',
  line: 1,
  direct: true,
  via: ['.', name],
});

describe('matching Terraform dependencies', () => {
  const catalog = terraformCatalog();
  const matcher = buildMatcher(catalog);
  const match = (dependency: Dependency) =>
    matcher
      .match(dependency)
      .map(
        (hit) =>
          `${hit.provider}${hit.component ? `/${hit.component.name}` : ''}${hit.component?.region ? `@${hit.component.region}` : ''}`,
      );

  it('finds providers by source, registry address, mixed case, or legacy bare name', () => {
    expect(match(dep('terraform-provider', 'hashicorp/aws'))).toEqual(['aws']);
    expect(match(dep('terraform-provider', 'registry.terraform.io/hashicorp/aws'))).toEqual(['aws']);
    expect(match(dep('terraform-provider', 'aws'))).toEqual(['aws']);
    expect(match(dep('terraform-provider', 'DataDog/datadog'))).toEqual(['datadog']);
    expect(match(dep('terraform-provider', 'datadog/datadog'))).toEqual(['datadog']);
  });

  it("does not take another namespace's provider for the catalog one of the same type", () => {
    expect(match(dep('terraform-provider', 'someone/aws'))).toEqual([]);
    expect(match(dep('terraform-provider', 'Twingate/twingate'))).toEqual([]);
  });

  it('narrows resource types to the longest matching prefix, component first, with the region', () => {
    expect(match(dep('terraform-resource', 'aws_lb', 'eu-west-2'))).toEqual(['aws/Elastic Load Balancing@eu-west-2']);
    expect(match(dep('terraform-resource', 'aws_lb_listener', 'eu-west-2'))).toEqual([
      'aws/Elastic Load Balancing@eu-west-2',
    ]);
    expect(match(dep('terraform-resource', 'aws_alb_target_group'))).toEqual(['aws/Elastic Load Balancing']);
    expect(match(dep('terraform-resource', 'aws_route53_record'))).toEqual(['aws/Amazon Route 53']);
    expect(match(dep('terraform-resource', 'aws_route_table'))).toEqual(['aws/Amazon Virtual Private Cloud']);
    expect(match(dep('terraform-resource', 'aws_iam_role'))).toEqual(['aws']);
    expect(match(dep('terraform-resource', 'cloudflare_record'))).toEqual(['cloudflare/Authoritative DNS']);
    expect(match(dep('terraform-resource', 'google_container_node_pool', 'europe-west2'))).toEqual([
      'google-cloud/Google Kubernetes Engine@europe-west2',
    ]);
    expect(match(dep('terraform-resource', 'twingate_resource'))).toEqual([]);
  });

  it('matches a word prefix only at a word boundary: aws_route is not aws_route53_', () => {
    const withoutRoute53 = terraformCatalog();
    const aws = withoutRoute53.providers.get('aws');
    if (!aws) throw new Error('fixture catalog has no aws');
    aws.components = aws.components.filter((component) => component.name !== 'Amazon Route 53');
    const narrow = buildMatcher(withoutRoute53);
    expect(
      narrow.match(dep('terraform-resource', 'aws_route53_zone')).map((hit) => hit.component?.name ?? hit.provider),
    ).toEqual(['aws']);
    expect(narrow.match(dep('terraform-resource', 'aws_route')).map((hit) => hit.component?.name)).toEqual([
      'Amazon Virtual Private Cloud',
    ]);
  });

  it('counts a registry module as its provider, and nothing for git or other sources', () => {
    expect(match(dep('terraform-module', 'terraform-aws-modules/vpc/aws', 'eu-west-2'))).toEqual(['aws']);
    expect(match(dep('terraform-module', 'terraform-aws-modules/vpc/aws//modules/vpc-endpoints'))).toEqual(['aws']);
    expect(match(dep('terraform-module', 'app.terraform.io/acme/network/google'))).toEqual(['google-cloud']);
    expect(match(dep('terraform-module', 'git::https://github.com/acme/terraform-aws-network.git?ref=v1.2.0'))).toEqual(
      [],
    );
    expect(match(dep('terraform-module', 'github.com/acme/aws'))).toEqual([]);
  });
});

describe('Terraform exposures', () => {
  const catalog = terraformCatalog();
  const matcher = buildMatcher(catalog);

  it('a provider requirement alone stands for the whole provider, region unknown', () => {
    const { exposures } = exposuresFor([dep('terraform-provider', 'hashicorp/aws')], matcher, catalog);
    expect(exposures).toMatchObject([{ provider: 'aws', components: [], wholeProvider: true }]);
    expect(exposures[0]?.wholeProviderRegions).toBeUndefined();
  });

  it('resources say more than the provider requirement: the exposure narrows to their components and regions', () => {
    const { exposures } = exposuresFor(
      [dep('terraform-provider', 'hashicorp/aws'), dep('terraform-resource', 'aws_lb', 'eu-west-2')],
      matcher,
      catalog,
    );
    expect(exposures).toHaveLength(1);
    expect(exposures[0]?.components).toMatchObject([{ name: 'Elastic Load Balancing', region: 'eu-west-2' }]);
    expect(exposures[0]?.components[0]?.evidence?.map((evidence) => evidence.name)).toEqual(['aws_lb']);
    expect(exposures[0]?.wholeProvider).toBeUndefined();
    expect(exposures[0]?.evidence.map((evidence) => evidence.name)).toEqual(['hashicorp/aws', 'aws_lb']);
  });

  it('a registry module stands for the whole provider, in the region of the provider it gets', () => {
    const { exposures } = exposuresFor(
      [
        dep('terraform-module', 'terraform-aws-modules/vpc/aws', 'us-east-1'),
        dep('terraform-resource', 'aws_lb', 'eu-west-2'),
      ],
      matcher,
      catalog,
    );
    expect(exposures[0]).toMatchObject({
      wholeProvider: true,
      wholeProviderRegions: ['us-east-1'],
      components: [{ name: 'Elastic Load Balancing', region: 'eu-west-2' }],
    });
    const unknown = exposuresFor(
      [
        dep('terraform-module', 'terraform-aws-modules/vpc/aws', 'us-east-1'),
        dep('terraform-module', 'terraform-aws-modules/iam/aws'),
      ],
      matcher,
      catalog,
    );
    expect(unknown.exposures[0]?.wholeProvider).toBe(true);
    expect(unknown.exposures[0]?.wholeProviderRegions).toBeUndefined();
  });

  it('a resource type the catalog maps to no component is evidence, not exposure to every component', () => {
    const { exposures, unmatched } = exposuresFor(
      [dep('terraform-provider', 'hashicorp/aws'), dep('terraform-resource', 'aws_iam_role', 'eu-west-2')],
      matcher,
      catalog,
    );
    expect(unmatched).toEqual([]);
    expect(exposures).toHaveLength(1);
    expect(exposures[0]?.components).toEqual([]);
    expect(exposures[0]?.wholeProvider).toBeUndefined();
    expect(exposures[0]?.evidence.map((evidence) => evidence.name)).toEqual(['hashicorp/aws', 'aws_iam_role']);
  });

  it('keeps providers the catalog does not know as unmatched', () => {
    const { unmatched } = exposuresFor(
      [dep('terraform-provider', 'Twingate/twingate'), dep('terraform-resource', 'twingate_resource')],
      matcher,
      catalog,
    );
    expect(unmatched.map((dependency) => dependency.name)).toEqual(['Twingate/twingate', 'twingate_resource']);
  });
});
