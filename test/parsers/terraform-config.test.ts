import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Dependency, InputResult } from '../../src/model.js';
import { parserForText } from '../../src/parsers/index.js';
import { terraformParser } from '../../src/parsers/terraform-config.js';
import { readConfigFile } from '../../src/parsers/terraform/config-files.js';
import { scanPaths } from '../../src/scan.js';

const CONFIGS = fileURLToPath(new URL('../fixtures/terraform/configs/', import.meta.url));

async function scan(dir: string) {
  return scanPaths([`${CONFIGS}${dir}`]);
}

/** `ecosystem name @region file:line` (region `?` when unknown), paths relative to the fixtures. */
function describeDependency(dependency: Dependency): string {
  return `${dependency.ecosystem} ${dependency.name}${dependency.version ? ` ${dependency.version}` : ''} @${dependency.region ?? '?'} ${relative(CONFIGS, dependency.file)}:${dependency.line}`;
}

function all(inputs: InputResult[], ecosystem?: Dependency['ecosystem']): Dependency[] {
  return inputs
    .flatMap((input) => input.dependencies)
    .filter((dependency) => !ecosystem || dependency.ecosystem === ecosystem);
}

function problems(inputs: InputResult[]): string[] {
  return inputs.flatMap((input) =>
    input.errors.map((error) => `${relative(CONFIGS, error.file)}:${error.line}: ${error.message}`),
  );
}

describe('Terraform root module with local and registry modules', () => {
  it('resolves every resource region: tfvars over the default, aliases passed to modules, inherited providers', async () => {
    const { inputs, errors } = await scan('root-with-modules');
    expect(errors).toEqual([]);
    expect(problems(inputs)).toEqual([]);
    expect(all(inputs, 'terraform-resource').map(describeDependency).sort()).toEqual(
      [
        // terraform.tfvars sets region = eu-west-2 over the variable's default us-east-1.
        'terraform-resource aws_lb @eu-west-2 root-with-modules/main.tf:34',
        'terraform-resource aws_lb_listener @eu-west-2 root-with-modules/main.tf:49',
        'terraform-resource aws_security_group @eu-west-2 root-with-modules/main.tf:65',
        'terraform-resource aws_s3_bucket @eu-west-2 root-with-modules/main.tf:70',
        'terraform-resource aws_cloudwatch_log_group @eu-west-2 root-with-modules/main.tf:75',
        'terraform-resource aws_region @eu-west-2 root-with-modules/main.tf:8',
        'terraform-resource random_password @? root-with-modules/main.tf:80',
        // The Cloudflare and Datadog providers have no region: unknown, not guessed.
        'terraform-resource cloudflare_record @? root-with-modules/dns.tf:1',
        'terraform-resource datadog_monitor @? root-with-modules/monitoring.tf:1',
        'terraform-resource twingate_remote_network @? root-with-modules/monitoring.tf:19',
        // module "edge" gets providers = { aws = aws.us }.
        'terraform-resource aws_acm_certificate @us-east-1 root-with-modules/modules/edge/main.tf:5',
        'terraform-resource aws_cloudfront_distribution @us-east-1 root-with-modules/modules/edge/main.tf:14',
        // module "network" inherits the default aws provider.
        'terraform-resource aws_vpc @eu-west-2 root-with-modules/modules/network/main.tf:1',
        'terraform-resource aws_subnet @eu-west-2 root-with-modules/modules/network/main.tf:7',
        'terraform-resource aws_nat_gateway @eu-west-2 root-with-modules/modules/network/main.tf:14',
        'terraform-resource aws_eip @eu-west-2 root-with-modules/modules/network/main.tf:19',
        'terraform-resource aws_lb @eu-west-2 root-with-modules/modules/network/main.tf:23',
      ].sort(),
    );
  });

  it('lists required_providers with their source, constraint and line, and the lock file versions', async () => {
    const { inputs } = await scan('root-with-modules');
    expect(all(inputs, 'terraform-provider').map(describeDependency)).toEqual([
      'terraform-provider cloudflare/cloudflare 4.44.0 @? root-with-modules/.terraform.lock.hcl:4',
      'terraform-provider datadog/datadog 3.46.0 @? root-with-modules/.terraform.lock.hcl:13',
      'terraform-provider hashicorp/aws 5.72.1 @? root-with-modules/.terraform.lock.hcl:21',
      'terraform-provider hashicorp/random 3.6.3 @? root-with-modules/.terraform.lock.hcl:30',
      'terraform-provider twingate/twingate 3.0.11 @? root-with-modules/.terraform.lock.hcl:37',
      'terraform-provider hashicorp/aws ~> 5.70 @? root-with-modules/versions.tf:11',
      'terraform-provider cloudflare/cloudflare ~> 4.40 @? root-with-modules/versions.tf:15',
      'terraform-provider DataDog/datadog >= 3.44.0 @? root-with-modules/versions.tf:19',
      'terraform-provider hashicorp/random @? root-with-modules/versions.tf:27',
      'terraform-provider Twingate/twingate 3.0.11 @? root-with-modules/versions.tf:23',
    ]);
  });

  it('counts a registry module as a module for its provider, in the region of the provider it gets', async () => {
    const { inputs } = await scan('root-with-modules');
    expect(all(inputs, 'terraform-module').map(describeDependency)).toEqual([
      'terraform-module terraform-aws-modules/vpc/aws//modules/vpc-endpoints 5.13.0 @eu-west-2 root-with-modules/main.tf:27',
    ]);
  });

  it('records the chain from the root through module calls, and marks module resources indirect', async () => {
    const { inputs } = await scan('root-with-modules');
    const internal = all(inputs).find((dependency) => dependency.via.at(-1) === 'aws_lb.internal');
    expect(internal?.via.slice(1)).toEqual(['module.network', 'aws_lb.internal']);
    expect(internal?.direct).toBe(false);
    const publicLb = all(inputs).find((dependency) => dependency.via.at(-1) === 'aws_lb.public');
    expect(publicLb?.direct).toBe(true);
  });

  it('reads remote modules where `terraform init` downloaded them, nested ones included; counts the others as module calls', async () => {
    const { inputs } = await scan('registry-modules-downloaded');
    expect(problems(inputs)).toEqual([]);
    expect(
      all(inputs)
        .map(
          (dependency) =>
            `${dependency.ecosystem} ${dependency.via.slice(1).join(' > ')} @${dependency.region ?? '?'}${dependency.direct ? '' : ' (indirect)'}`,
        )
        .sort(),
    ).toEqual(
      [
        'terraform-provider aws @?',
        'terraform-resource module.alb > aws_lb.this @eu-west-2 (indirect)',
        'terraform-resource module.alb > aws_lb_target_group.this @eu-west-2 (indirect)',
        'terraform-resource module.alb > module.sg > aws_security_group.this @eu-west-2 (indirect)',
        'terraform-module module.notify @us-east-1',
        'terraform-resource module.records > data.aws_route53_zone.this @eu-west-2 (indirect)',
        'terraform-resource module.records > aws_route53_record.apex @eu-west-2 (indirect)',
      ].sort(),
    );
    expect(all(inputs).find((dependency) => dependency.name === 'aws_lb')?.file).toMatch(
      /registry-modules-downloaded\/\.terraform\/modules\/alb\/main\.tf$/,
    );
  });

  it('evaluates a module directory scanned on its own only through its caller', async () => {
    const { inputs } = await scan('root-with-modules');
    const vpcs = all(inputs).filter((dependency) => dependency.name === 'aws_vpc');
    expect(vpcs).toHaveLength(1);
    expect(
      inputs.filter((input) => input.file.endsWith('modules/network/variables.tf')).map((input) => input.kind),
    ).toEqual(['terraform']);
  });

  it('follows a local module outside the scanned directory when the root is named alone', async () => {
    const { inputs } = await scanPaths([`${CONFIGS}root-with-modules/main.tf`]);
    expect(
      all(inputs, 'terraform-resource')
        .filter((dependency) => !dependency.direct)
        .map((dependency) => dependency.name)
        .sort(),
    ).toEqual(
      [
        'aws_acm_certificate',
        'aws_cloudfront_distribution',
        'aws_eip',
        'aws_lb',
        'aws_nat_gateway',
        'aws_subnet',
        'aws_vpc',
      ].sort(),
    );
    // Only main.tf was named: the provider block in providers.tf is not there, so regions are unknown.
    expect(all(inputs, 'terraform-resource').every((dependency) => dependency.region === undefined)).toBe(true);
  });
});

describe('Terraform regions', () => {
  it('resolves a provider a module configures itself from its inputs, per call, and passes it further down', async () => {
    const { inputs } = await scan('module-own-provider');
    expect(problems(inputs)).toEqual([]);
    expect(
      all(inputs, 'terraform-resource')
        .map((dependency) => `${dependency.via.slice(1).join(' > ')} @${dependency.region ?? '?'}`)
        .sort(),
    ).toEqual([
      'data.external.pick @?',
      'module.replica > aws_dynamodb_table.replica @ap-northeast-1',
      'module.replica > module.bucket > aws_s3_bucket.replica @ap-northeast-1',
      // The input comes from a data source: its value is only known at apply time.
      'module.replica_unknown > aws_dynamodb_table.replica @?',
      'module.replica_unknown > module.bucket > aws_s3_bucket.replica @?',
    ]);
  });

  it('takes each explicit *.tfvars as one way to apply the module', async () => {
    const { inputs } = await scan('var-files-per-env');
    expect(all(inputs, 'terraform-resource').map(describeDependency)).toEqual([
      'terraform-resource aws_db_instance @eu-west-2 var-files-per-env/main.tf:5',
      'terraform-resource aws_db_instance @us-east-1 var-files-per-env/main.tf:5',
    ]);
    expect(inputs.filter((input) => input.kind === 'tfvars').map((input) => relative(CONFIGS, input.file))).toEqual([
      'var-files-per-env/prod.tfvars',
      'var-files-per-env/staging.tfvars',
    ]);
  });

  it('reads Google region, zone and location and Azure location (display names normalised)', async () => {
    const { inputs } = await scan('google-and-azure');
    expect(
      all(inputs, 'terraform-resource').map((dependency) => `${dependency.via.at(-1)} @${dependency.region ?? '?'}`),
    ).toEqual([
      'google_container_cluster.primary @europe-west1',
      'google_compute_instance.bastion @europe-west2',
      'google_storage_bucket.exports @us-central1',
      'google_storage_bucket.logs @europe-west2',
      'azurerm_resource_group.main @westeurope',
      'azurerm_kubernetes_cluster.main @westeurope',
    ]);
  });

  it('reads .tf.json with terraform.tfvars.json, provider aliases and module provider maps', async () => {
    const { inputs } = await scan('json-config');
    expect(problems(inputs)).toEqual([]);
    expect(all(inputs).map(describeDependency)).toEqual([
      'terraform-provider hashicorp/aws ~> 5.0 @? json-config/main.tf.json:2',
      'terraform-provider DataDog/datadog @? json-config/main.tf.json:2',
      'terraform-resource aws_lb @eu-west-1 json-config/main.tf.json:19',
      'terraform-resource aws_s3_bucket @us-east-1 json-config/main.tf.json:25',
      'terraform-resource datadog_synthetics_test @? json-config/main.tf.json:30',
      'terraform-module terraform-aws-modules/sqs/aws 4.2.1 @us-east-1 json-config/main.tf.json:38',
    ]);
  });

  it('reads Terraform 0.12 forms: a bare version constraint, quoted provider references, providers without requirements', async () => {
    const { inputs } = await scan('legacy-0-12');
    expect(all(inputs).map(describeDependency)).toEqual([
      'terraform-provider aws ~> 2.70 @? legacy-0-12/main.tf:4',
      'terraform-provider google @? legacy-0-12/main.tf:17',
      'terraform-resource aws_elb @us-west-2 legacy-0-12/main.tf:21',
      // provider "google" sets a project but no region.
      'terraform-resource google_compute_network @? legacy-0-12/main.tf:34',
    ]);
  });
});

describe('Terraform bad input', () => {
  it('reports each broken block at its line and still counts every other block', async () => {
    const { inputs } = await scan('broken-blocks');
    expect(problems(inputs)).toEqual([
      'broken-blocks/main.tf:9: resource "aws_lb" "unterminated_string": string is not closed on its line (line 10); skipped',
      'broken-blocks/main.tf:23: resource "aws_sqs_queue" "never_closed": "{" is never closed; skipped',
      'broken-blocks/main.tf:14: provider "aws": syntax error (the HCL parser gives no detail); the block is skipped',
    ]);
    expect(
      all(inputs, 'terraform-resource').map((dependency) => `${dependency.via.at(-1)} @${dependency.region}`),
    ).toEqual([
      'aws_s3_bucket.ok_before @eu-west-2',
      'aws_lb.ok_after @eu-west-2',
      'aws_sns_topic.after_unclosed @eu-west-2',
    ]);
  });

  it('names a local module that cannot be read at the module call, and keeps the rest', async () => {
    const { inputs } = await scan('missing-module');
    expect(problems(inputs)).toEqual([
      'missing-module/main.tf:5: module "app": cannot read ./modules/app (no such file or directory); its resources are not counted',
    ]);
    expect(all(inputs, 'terraform-resource').map(describeDependency)).toEqual([
      'terraform-resource aws_route53_zone @ap-southeast-2 missing-module/main.tf:9',
    ]);
  });

  it('stops at a module cycle, reports it, and counts each module once', async () => {
    const { inputs } = await scan('module-cycle');
    expect(problems(inputs)).toEqual([
      'module-cycle/b/main.tf:1: module "a": ../a is already being read (' +
        `${CONFIGS}module-cycle/a → ${CONFIGS}module-cycle/b → ${CONFIGS}module-cycle/a); not followed again`,
    ]);
    expect(
      all(inputs, 'terraform-resource').map(
        (dependency) => `${dependency.via.slice(1).join(' > ')} @${dependency.region}`,
      ),
    ).toEqual(['aws_sqs_queue.a @eu-west-1', 'module.b > aws_sns_topic.b @eu-west-1']);
  });

  it('reads a single pasted file, and says a local module cannot be followed from it', () => {
    const text =
      'provider "aws" {\n  region = "eu-central-1"\n}\n\nmodule "app" {\n  source = "./app"\n}\n\nresource "aws_lb" "x" {}\n';
    expect(terraformParser.sniff(text)).toBe(true);
    const result = terraformParser.parse(text, '<stdin>');
    expect(
      result.dependencies.map(
        (dependency) => `${dependency.ecosystem} ${dependency.name} @${dependency.region ?? '?'}`,
      ),
    ).toEqual(['terraform-provider aws @?', 'terraform-resource aws_lb @eu-central-1']);
    expect(result.errors).toEqual([
      {
        file: '<stdin>',
        line: 5,
        message: 'module "app": cannot read ./app (not available from this input); its resources are not counted',
      },
    ]);
  });

  it('recognises pasted .tf.json and reads it as JSON', async () => {
    const { readFile } = await import('node:fs/promises');
    const text = await readFile(`${CONFIGS}json-config/main.tf.json`, 'utf8');
    expect(await parserForText(text)).toBe(terraformParser);
    expect(
      terraformParser
        .parse(text, '<stdin>')
        .dependencies.map((dependency) => `${dependency.name} @${dependency.region ?? '?'}`),
    ).toEqual([
      'hashicorp/aws @?',
      'DataDog/datadog @?',
      // Without terraform.tfvars.json beside it, the variable's default applies.
      'aws_lb @us-west-2',
      'aws_s3_bucket @us-east-1',
      'datadog_synthetics_test @?',
      'terraform-aws-modules/sqs/aws @us-east-1',
    ]);
  });

  it('reads Windows line endings exactly like Unix ones', async () => {
    const { readFile } = await import('node:fs/promises');
    const text = await readFile(`${CONFIGS}root-with-modules/monitoring.tf`, 'utf8');
    const unix = terraformParser.parse(text, 'monitoring.tf');
    expect(unix.dependencies).toHaveLength(2);
    expect(terraformParser.parse(text.replace(/\n/g, '\r\n'), 'monitoring.tf')).toEqual(unix);
  });

  it('reports a broken .tf.json at its line', () => {
    const result = terraformParser.parse('{\n  "resource": {\n    "aws_lb": { "x": {} },\n  }\n}\n', 'main.tf.json');
    expect(result.dependencies).toEqual([]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]?.line).toBe(4);
  });
});

describe('Terraform inputs seen on real infrastructure repositories', () => {
  it('reads a .tfvars file with heredocs: their values, and every line after them', async () => {
    const { inputs, errors } = await scan('tfvars-heredoc');
    expect(errors).toEqual([]);
    expect(problems(inputs)).toEqual([]);
    // region is set on the line after the first heredoc.
    expect(all(inputs, 'terraform-resource').map(describeDependency)).toEqual([
      'terraform-resource aws_s3_bucket @eu-north-1 tfvars-heredoc/main.tf:14',
      'terraform-resource aws_s3_bucket_policy @eu-north-1 tfvars-heredoc/main.tf:18',
    ]);
    const text = readFileSync(`${CONFIGS}tfvars-heredoc/terraform.tfvars`, 'utf8');
    const values = readConfigFile(text, 'terraform.tfvars', 'tfvars').values;
    expect(values.get('bucket_policy')?.value).toMatch(/^\{\n {2}"Version": "2012-10-17",\n[\s\S]*\}\n$/);
    expect(values.get('banner')).toEqual({ value: 'Managed by Terraform\n', line: 8 });
  });

  it('follows a symbolic link to a file inside the scan, and names each link it does not follow', async () => {
    const { inputs, errors } = await scan('symlinked-files');
    expect(errors.map((error) => `${relative(CONFIGS, error.file)}: ${error.message}`)).toEqual([
      'symlinked-files/live/broken.tf: symbolic link to a file that does not exist; not read',
      'symlinked-files/live/outside.tf: symbolic link to a file outside the scanned directories; not read',
      'symlinked-files/modules/queue/dangling.tf: symbolic link to a file that does not exist; not read',
    ]);
    // live/providers.tf links to shared/providers.tf: its region reaches live's resources and the module's.
    expect(all(inputs, 'terraform-resource').map(describeDependency)).toEqual([
      'terraform-resource aws_sqs_queue @ap-south-1 symlinked-files/live/main.tf:1',
      'terraform-resource aws_sns_topic @ap-south-1 symlinked-files/modules/queue/main.tf:1',
    ]);
    expect(all(inputs, 'terraform-provider').map(describeDependency)).toContain(
      'terraform-provider hashicorp/aws >= 5.0 @? symlinked-files/modules/queue/versions.tf:3',
    );
  });

  it('follows links in a local module read from outside the scan, and reports a dangling one there', async () => {
    const { inputs, errors } = await scan('symlinked-files/live');
    // shared/ is outside symlinked-files/live: the link to it is named, not followed.
    expect(errors.map((error) => `${relative(CONFIGS, error.file)}: ${error.message}`)).toEqual([
      'symlinked-files/live/broken.tf: symbolic link to a file that does not exist; not read',
      'symlinked-files/live/outside.tf: symbolic link to a file outside the scanned directories; not read',
      'symlinked-files/live/providers.tf: symbolic link to a file outside the scanned directories; not read',
    ]);
    expect(problems(inputs)).toEqual([
      'symlinked-files/modules/queue/dangling.tf:undefined: symbolic link to a file that does not exist; not read',
    ]);
    expect(all(inputs, 'terraform-provider').map(describeDependency)).toEqual([
      'terraform-provider hashicorp/aws >= 5.0 @? symlinked-files/modules/queue/versions.tf:3',
    ]);
  });
});

describe('Terraform parser on arbitrary text', () => {
  it('never throws: every problem becomes a located error, whatever the input', async () => {
    const fc = (await import('fast-check')).default;
    const pieces = fc.constantFrom(
      'resource "aws_lb" "c" {',
      '}',
      '{',
      '"',
      '${',
      '<<EOT\n',
      'EOT\n',
      '/*',
      '*/',
      '#',
      '\n',
      ' x = 1',
      '[',
      ']',
      'variable "r" { default = "eu-west-1" }\n',
      'provider = aws.x\n',
      'region = var.r\n',
      'provider "aws" {\n',
      'module "m" {\n source = "./x"\n',
      '%{',
      '= =',
      '(',
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 30 }), (parts) => {
        const text = parts.join('');
        const lines = text.split('\n').length;
        const result = terraformParser.parse(text, 'fuzz.tf');
        return result.errors.every(
          (error) => error.file === 'fuzz.tf' && (error.line ?? 1) >= 1 && (error.line ?? 1) <= lines,
        );
      }),
      { numRuns: 200 },
    );
  });
});
