// Terraform scan speed over a generated 300-file, ~60k-line tree, as a ratio against a bare read of the same
// files (same run, same machine), with MB/s against the ≥ 2 MB/s goal. `npm run bench terraform` runs it alone.
import { mkdtemp, readFile, rm, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { median, report } from './harness.js';

const ROOTS = 25;
const SERVICES = ['api', 'web', 'worker', 'billing', 'search'];

/** A small deterministic generator, so every run measures the same text. */
function random(seed) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

function resourceBlock(next, index, service) {
  const kind = Math.floor(next() * 8);
  const name = `${service}_${index}`;
  switch (kind) {
    case 0:
      return `resource "aws_lb" "${name}" {
  name               = "\${local.prefix}-${index}"
  load_balancer_type = "application"
  internal           = ${index % 2 === 0}
  security_groups    = [aws_security_group.${name}.id]

  dynamic "subnet_mapping" {
    for_each = var.subnet_ids
    content {
      subnet_id = subnet_mapping.value
    }
  }

  access_logs {
    bucket  = aws_s3_bucket.logs.id
    prefix  = "${service}/${index}"
    enabled = true
  }

  tags = merge(local.tags, { Name = "\${local.prefix}-${index}" })
}

resource "aws_security_group" "${name}" {
  name_prefix = "\${local.prefix}-${index}-"
  vpc_id      = var.vpc_id

  ingress {
    from_port   = 443
    to_port     = 443
    protocol    = "tcp"
    cidr_blocks = ["0.0.0.0/0"]
  }
}
`;
    case 1:
      return `resource "aws_iam_role_policy" "${name}" {
  name = "${name}"
  role = aws_iam_role.${service}.id

  policy = <<-EOT
    {
      "Version": "2012-10-17",
      "Statement": [
        {
          "Effect": "Allow",
          "Action": ["s3:GetObject", "s3:PutObject"],
          "Resource": "arn:aws:s3:::\${local.prefix}-${index}/*"
        },
        {
          "Effect": "Allow",
          "Action": ["sqs:SendMessage"],
          "Resource": "\${aws_sqs_queue.${service}.arn}"
        }
      ]
    }
  EOT
}
`;
    case 2:
      return `resource "aws_s3_bucket" "${name}" {
  for_each = toset(["raw", "processed", "archive"])
  bucket   = "\${local.prefix}-${index}-\${each.key}"
  tags     = local.tags
}

resource "aws_s3_bucket_versioning" "${name}" {
  for_each = aws_s3_bucket.${name}
  bucket   = each.value.id
  versioning_configuration {
    status = "Enabled"
  }
}
`;
    case 3:
      return `resource "aws_cloudwatch_metric_alarm" "${name}" {
  alarm_name          = "\${local.prefix}-${index}-5xx"
  comparison_operator = "GreaterThanThreshold"
  evaluation_periods  = 3
  metric_name         = "HTTPCode_Target_5XX_Count"
  namespace           = "AWS/ApplicationELB"
  period              = 60
  statistic           = "Sum"
  threshold           = ${10 + index}
  alarm_description   = "5xx answers from ${service} (\${var.environment})"
  dimensions = {
    LoadBalancer = "app/\${local.prefix}/${index}"
  }
}
`;
    case 4:
      return `resource "aws_s3_bucket" "${name}_replica" {
  provider = aws.replica
  bucket   = "\${local.prefix}-${index}-replica"
}
`;
    case 5:
      return `resource "cloudflare_record" "${name}" {
  zone_id = var.zone_id
  name    = "${service}-${index}"
  content = "\${local.prefix}.example.com"
  type    = "CNAME"
  proxied = true
  comment = "managed by terraform: {${service}}"
}
`;
    case 6:
      return `resource "datadog_monitor" "${name}" {
  name    = "${service} ${index} latency"
  type    = "metric alert"
  query   = "avg(last_5m):avg:trace.http.request.duration{service:${service}} > 0.${(index % 9) + 1}"
  message = <<-EOT
    Latency of ${service} is high.
    %{ if var.environment == "production" }@pagerduty-${service}%{ endif }
  EOT

  monitor_thresholds {
    critical = 0.${(index % 9) + 1}
  }
}
`;
    default:
      return `resource "aws_sqs_queue" "${name}" {
  name                       = "\${local.prefix}-${index}"
  visibility_timeout_seconds = 60
  message_retention_seconds  = 1209600
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.${service}_dlq.arn
    maxReceiveCount     = 5
  })
}
`;
  }
}

function rootFiles(next, root) {
  const service = SERVICES[root % SERVICES.length];
  const files = {
    'versions.tf': `terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.70"
    }
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 4.40"
    }
    datadog = {
      source = "DataDog/datadog"
    }
  }
}
`,
    'providers.tf': `provider "aws" {
  region = var.region
}

provider "aws" {
  alias  = "replica"
  region = "us-west-2"
}
`,
    'variables.tf': ['region', 'environment', 'vpc_id', 'zone_id', 'subnet_ids']
      .map(
        (name) =>
          `variable "${name}" {\n  type    = ${name === 'subnet_ids' ? 'list(string)' : 'string'}\n  default = ${name === 'region' ? '"eu-west-2"' : name === 'subnet_ids' ? '[]' : '"x"'}\n}\n`,
      )
      .join('\n'),
    'terraform.tfvars': `region      = "eu-west-${1 + (root % 3)}"\nenvironment = "production"\n`,
    'locals.tf': `locals {\n  prefix = "${service}-\${var.environment}"\n  tags = {\n    Service = "${service}"\n  }\n}\n`,
  };
  let index = 0;
  for (let file = 0; file < 6; file++) {
    let text = '';
    while (text.split('\n').length < 390) text += `${resourceBlock(next, index++, service)}\n`;
    files[`${service}-${file}.tf`] = text;
  }
  files['modules.tf'] = `module "queue" {\n  source = "../modules/queue"\n  name   = local.prefix\n}\n`;
  return files;
}

async function generate(dir) {
  const next = random(42);
  const paths = [];
  for (let root = 0; root < ROOTS; root++) {
    const rootDir = join(dir, `stack-${String(root).padStart(2, '0')}`);
    await mkdir(rootDir, { recursive: true });
    for (const [name, text] of Object.entries(rootFiles(next, root))) {
      await writeFile(join(rootDir, name), text);
      paths.push(join(rootDir, name));
    }
  }
  const moduleDir = join(dir, 'modules', 'queue');
  await mkdir(moduleDir, { recursive: true });
  let text = 'variable "name" {\n  type = string\n}\n\n';
  for (let i = 0; text.split('\n').length < 250; i++) text += `${resourceBlock(next, i, 'queue')}\n`;
  await writeFile(join(moduleDir, 'main.tf'), text);
  paths.push(join(moduleDir, 'main.tf'));
  return paths;
}

export async function run() {
  console.log('\n# terraform: scan of a generated 300-file, ~60k-line tree');
  const dist = new URL('../dist/', import.meta.url);
  const { scanPaths } = await import(new URL('scan.js', dist).href);
  const { createTerraformParser } = await import(new URL('parsers/terraform-config.js', dist).href);
  const { NO_FILES } = await import(new URL('parsers/types.js', dist).href);
  const dir = await mkdtemp(join(tmpdir(), 'downstack-bench-tf-'));
  try {
    const paths = await generate(dir);
    const readAll = async () => Promise.all(paths.map((path) => readFile(path, 'utf8')));
    const texts = await readAll();
    const mb = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0) / 1e6;
    const lines = texts.reduce((sum, text) => sum + text.split('\n').length - 1, 0);
    const rate = (ms) => `${(mb / (ms / 1000)).toFixed(2)} MB/s`;

    // The first scan in a process pays for loading hcl2-parser; it can only be measured once.
    const start = performance.now();
    const first = await scanPaths([dir]);
    const cold = performance.now() - start;
    const bare = await median(readAll, 5);
    const warm = await median(() => scanPaths([dir]), 5);
    const dependencies = first.inputs.reduce((sum, input) => sum + input.dependencies.length, 0);
    const problems = first.inputs.reduce((sum, input) => sum + input.errors.length, 0) + first.errors.length;
    console.log(
      `tree: ${paths.length} files, ${lines} lines, ${mb.toFixed(2)} MB → ${dependencies} dependencies, ${problems} problems`,
    );
    report('bare read of the same files', bare, 'bare read', bare);
    report('terraform scan, first in process', cold, 'bare read', bare, `${rate(cold)} (includes loading hcl2-parser)`);
    report('terraform scan', warm, 'bare read', bare, rate(warm));

    // Every block fully parsed: what the header-only fast path saves (one run; it is slow).
    const inputs = [];
    for (const path of paths) inputs.push({ path, text: await readFile(path, 'utf8') });
    const fullStart = performance.now();
    await createTerraformParser({ fastPath: false }).parseTogether(inputs, NO_FILES);
    const full = performance.now() - fullStart;
    report('terraform, every block fully parsed', full, 'bare read', bare, rate(full));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run();
