import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.js';
import { parserForPath, parserForText } from '../../src/parsers/index.js';
import { parseTerraformPlan, terraformPlanParser } from '../../src/parsers/terraform-plan.js';
import {
  parseTerraformProvidersText,
  terraformProvidersTextParser,
} from '../../src/parsers/terraform-providers-text.js';

const read = (name: string) => readFileSync(new URL(`../fixtures/terraform/plan/${name}`, import.meta.url), 'utf8');
const summary = (dependencies: ReturnType<typeof parseTerraformPlan>['dependencies']) =>
  dependencies.map(
    (dependency) =>
      `${dependency.ecosystem} ${dependency.via.slice(1).join(' > ')} @${dependency.region ?? '?'}${dependency.direct ? '' : ' (indirect)'}`,
  );

describe('terraform show -json', () => {
  it('reads a plan: one dependency per resource (instances folded), regions from provider configs, variables and ARNs', () => {
    const result = parseTerraformPlan(read('shop.tfplan.json'), 'shop.tfplan.json');
    expect(summary(result.dependencies)).toEqual([
      // provider "aws" has region = var.region, and the plan records var.region = eu-west-2.
      'terraform-resource aws_lb.public @eu-west-2',
      // An existing load balancer: its ARN says us-east-1.
      'terraform-resource aws_lb.legacy @us-east-1',
      'terraform-resource aws_s3_bucket.assets @eu-west-2',
      'terraform-resource cloudflare_record.shop @?',
      'terraform-resource module.edge > aws_acm_certificate.this @us-east-1 (indirect)',
      // A registry module is expanded into its resources in a plan.
      'terraform-resource module.vpc_endpoints > aws_vpc_endpoint.this @eu-west-2 (indirect)',
      'terraform-provider cloudflare/cloudflare @?',
      'terraform-provider hashicorp/aws @?',
    ]);
  });

  it('reads a state (values.root_module with child modules)', () => {
    const result = parseTerraformPlan(read('shop-state.json'), 'state.json');
    expect(summary(result.dependencies)).toEqual([
      'terraform-resource aws_lb.public @eu-west-2',
      'terraform-resource data.aws_region.current @eu-west-2',
      'terraform-resource google_container_cluster.primary @europe-west1',
      'terraform-resource module.network > aws_vpc.this @eu-west-2 (indirect)',
      'terraform-provider hashicorp/aws @?',
      'terraform-provider hashicorp/google @?',
    ]);
  });

  it('is recognised by name or by content, ahead of package.json', async () => {
    expect(await parserForPath('out/prod.tfplan.json')).toBe(terraformPlanParser);
    expect(await parserForPath('package.json')).not.toBe(terraformPlanParser);
    expect(await parserForText(read('shop-state.json'))).toBe(terraformPlanParser);
  });

  it('says so when a claimed file is other JSON', () => {
    expect(() => parseTerraformPlan('{"name": "x"}', 'plan.json')).toThrow(
      new ParseError('plan.json', 1, 'not `terraform show -json` output (no "format_version")'),
    );
    expect(() => parseTerraformPlan('{"format_version": "1.2",\n', 'plan.json')).toThrow(ParseError);
  });
});

describe('terraform providers (pasted text)', () => {
  it('reads the tree with module nesting and the state section', async () => {
    const text = read('providers-output.txt');
    expect(await parserForText(text)).toBe(terraformProvidersTextParser);
    const result = parseTerraformProvidersText(text, '<stdin>');
    expect(
      result.dependencies.map((dependency) =>
        `${dependency.via.slice(1).join(' > ')} ${dependency.version ?? ''}`.trim(),
      ),
    ).toEqual([
      'hashicorp/aws ~> 5.70',
      'cloudflare/cloudflare ~> 4.40',
      'datadog/datadog >= 3.44.0',
      'twingate/twingate 3.0.11',
      'module.edge > hashicorp/aws',
      'module.vpc_endpoints > hashicorp/aws >= 5.46.0',
      'hashicorp/aws',
      'cloudflare/cloudflare',
    ]);
  });
});
