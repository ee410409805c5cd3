import { describe, expect, it } from 'vitest';
import { buildMatcher, exposuresFor } from '../../src/catalog/matcher.js';
import { testCatalog } from '../helpers/catalog.js';
import type { Dependency } from '../../src/model.js';

const catalog = testCatalog(['aws', 'google-cloud', 'heroku', 'stripe', 'twingate']);
const matcher = buildMatcher(catalog);
const dep = (ecosystem: Dependency['ecosystem'], name: string, extra: Partial<Dependency> = {}): Dependency => ({
  ecosystem,
  name,
  file: 'f',
  direct: true,
  via: [name],
  ...extra,
});

describe('matcher', () => {
  it('narrows an npm package to a component when the catalog knows the mapping', () => {
    expect(matcher.match(dep('npm', '@aws-sdk/client-s3'))).toEqual([
      { provider: 'aws', component: { name: 'Amazon Simple Storage Service' } },
    ]);
    expect(matcher.match(dep('npm', '@aws-sdk/client-sqs'))).toEqual([{ provider: 'aws', component: undefined }]);
    expect(matcher.match(dep('npm', 'stripe'))).toEqual([{ provider: 'stripe', component: undefined }]);
    expect(matcher.match(dep('npm', 'express'))).toEqual([]);
  });

  it('maps hosts through private suffixes and regional host patterns', () => {
    expect(matcher.match(dep('domain', 'acme.herokuapp.com'))).toEqual([{ provider: 'heroku', component: undefined }]);
    expect(matcher.match(dep('domain', 'bucket.s3.us-east-1.amazonaws.com'))).toEqual([
      { provider: 'aws', component: { name: 'Amazon Simple Storage Service', region: 'us-east-1' } },
    ]);
    expect(matcher.match(dep('domain', 'my-lb-123.elb.eu-west-2.amazonaws.com'))).toEqual([
      { provider: 'aws', component: { name: 'Elastic Load Balancing', region: 'eu-west-2' } },
    ]);
    expect(matcher.match(dep('domain', 'api.stripe.com'))).toEqual([
      { provider: 'stripe', component: { name: 'API' } },
    ]);
    expect(matcher.match(dep('domain', 'notstripe.com'))).toEqual([]);
  });

  it('lets the most specific host rule win, whether it is an exact host or a pattern', () => {
    expect(matcher.match(dep('domain', 'www.twingate.com'))).toEqual([
      { provider: 'twingate', component: { name: 'www.twingate.com' } },
    ]);
    expect(matcher.match(dep('domain', 'acme.twingate.com'))).toEqual([
      { provider: 'twingate', component: { name: 'Controller' } },
    ]);
    expect(matcher.match(dep('domain', 'twingate.com'))).toEqual([{ provider: 'twingate', component: undefined }]);
  });

  it('uses the longest Terraform resource prefix and keeps the region', () => {
    expect(matcher.match(dep('terraform-resource', 'aws_lb_listener', { region: 'eu-west-2' }))).toEqual([
      { provider: 'aws', component: { name: 'Elastic Load Balancing', region: 'eu-west-2' } },
    ]);
    expect(matcher.match(dep('terraform-resource', 'aws_iam_role'))).toEqual([
      { provider: 'aws', component: undefined },
    ]);
    expect(matcher.match(dep('terraform-provider', 'hashicorp/aws'))).toEqual([
      { provider: 'aws', component: undefined },
    ]);
  });

  it('groups matches per provider and adds the upstreams a provider runs on', () => {
    const deps = [
      dep('domain', 'controller.twingate.com'),
      dep('npm', 'stripe', { kind: 'dev' }),
      dep('npm', 'express'),
    ];
    const { exposures, unmatched } = exposuresFor(deps, matcher, catalog);
    expect(unmatched.map((d) => d.name)).toEqual(['express']);
    expect(exposures.map((e) => [e.provider, e.through, e.devOnly, e.components.map((c) => c.name)])).toEqual([
      ['twingate', undefined, false, ['Controller']],
      ['stripe', undefined, true, []],
      ['google-cloud', 'twingate', false, ['Google Kubernetes Engine', 'Cloud Load Balancing']],
    ]);
  });

  it('does not widen to the whole provider for an SDK’s own plumbing pulled in by a narrowed package', () => {
    const s3 = dep('npm', '@aws-sdk/client-s3');
    const core = dep('npm', '@aws-sdk/core', { direct: false, via: ['app', '@aws-sdk/client-s3', '@aws-sdk/core'] });
    const [aws] = exposuresFor([core, s3], matcher, catalog).exposures;
    expect(aws?.wholeProvider).toBeUndefined();
    expect(aws?.components.map((c) => c.name)).toEqual(['Amazon Simple Storage Service']);
    expect(aws?.evidence.map((d) => d.name)).toEqual(['@aws-sdk/client-s3', '@aws-sdk/core']);
    // The same package declared on its own is a use of AWS as a whole.
    expect(exposuresFor([dep('npm', '@aws-sdk/core'), s3], matcher, catalog).exposures[0]?.wholeProvider).toBe(true);
  });
});
