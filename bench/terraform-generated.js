// The Terraform bench's fallback corpus, for machines without the real modules: module repositories (a root module,
// submodules, examples calling them) generated with the block mix of six real ones (terraform-aws-modules eks, vpc,
// rds; terraform-google-modules kubernetes-engine, network; Azure aks: 1,091 .tf files, 3.92 MB). terraform-shape.js
// computes the statistics for both; bench/terraform.js prints them side by side. Matched, real → generated:
//   files per MB 278 → 327; text share: variables 24 → 22 %, resources 27 → 31 %, module calls 10 → 7 %,
//   outputs 14 → 14 %, locals 6 → 6 %, comments 16 → 17 %;
//   per 100 KB: variables 93 → 94 (mean 254 → 230 bytes; with description 98 → 97 %, object type 9 → 7 %,
//   validation 3 → 3 %), resources and data 29 → 31, dynamic blocks 39 → 42, for expressions 18 → 21,
//   heredocs 3.2 → 2.6, Google resources with a location 4.5 → 4.8, module calls 10 → 8, outputs 98 → 100,
//   locals blocks 6.2 → 6.8.
// Not matched: the file size spread (median 1.4 → 2.1 KB, largest 103 → 20 KB) and local names (39 → 55 per 100 KB).
// No generated block needs the full parser; in the real modules 3 blocks do (aks, eks), which loads hcl2-parser there.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A small deterministic generator, so every run measures the same text. */
function random(seed) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const WORDS =
  'the cluster node pool subnet network name of to be used for all when set enabled list map whether create this resource module default value security group policy role tags additional identifier region zone project'.split(
    ' ',
  );

const FAMILIES = [
  {
    provider: 'aws',
    source: 'hashicorp/aws',
    version: '>= 6.0',
    types: [
      'aws_eks_node_group',
      'aws_security_group_rule',
      'aws_iam_role',
      'aws_launch_template',
      'aws_db_instance',
      'aws_subnet',
    ],
  },
  {
    provider: 'google',
    source: 'hashicorp/google',
    version: '>= 6.0, < 8',
    types: [
      'google_container_node_pool',
      'google_compute_firewall',
      'google_compute_subnetwork',
      'google_service_account',
      'google_compute_router',
    ],
  },
  {
    provider: 'azurerm',
    source: 'hashicorp/azurerm',
    version: '>= 4.0',
    types: ['azurerm_kubernetes_cluster_node_pool', 'azurerm_role_assignment', 'azurerm_log_analytics_workspace'],
  },
];

const OUTPUT_SOURCES = [
  'aws_eks_node_group.this[0]',
  'google_container_node_pool.pools',
  'module.cluster',
  'local.outputs',
];

const LICENSE = `/**
 * Copyright 2024 Example Maintainers
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

`;

class Writer {
  constructor(next) {
    this.next = next;
    this.keys = new Set();
  }
  pick(list) {
    return list[Math.floor(this.next() * list.length)];
  }
  chance(p) {
    return this.next() < p;
  }
  between(low, high) {
    return low + Math.floor(this.next() * (high - low + 1));
  }
  sentence(low, high) {
    const words = [];
    for (let i = this.between(low, high); i > 0; i--) words.push(this.pick(WORDS));
    const text = words.join(' ');
    return `${text[0].toUpperCase()}${text.slice(1)}`;
  }
  name() {
    return `${this.pick(WORDS)}_${this.pick(WORDS)}`;
  }
  /** A name for the left of `=` or a nested block: unique within the block being written, as HCL requires. */
  key() {
    let key = this.name();
    while (this.keys.has(key)) key = this.name();
    this.keys.add(key);
    return key;
  }
  /** A block label, unique in the whole tree. */
  label() {
    this.serial = (this.serial ?? 0) + 1;
    return `${this.name()}_${this.serial}`;
  }

  variable(name) {
    this.keys.clear();
    const kind = this.next();
    let type = this.pick(['string', 'bool', 'number', 'list(string)', 'map(string)']);
    let fallback = type === 'bool' ? 'true' : type === 'number' ? String(this.between(1, 300)) : 'null';
    if (kind < 0.09) {
      const fields = [];
      for (let i = this.between(3, 9); i > 0; i--)
        fields.push(`    ${this.key()} = optional(${this.pick(['string', 'bool', 'number', 'list(string)'])})`);
      const wrapper = this.pick(['object', 'list(object', 'map(object']);
      type = `${wrapper}({\n${fields.join('\n')}\n  })${wrapper === 'object' ? '' : ')'}`;
      fallback = wrapper === 'map(object' ? '{}' : wrapper === 'list(object' ? '[]' : 'null';
    }
    const description = this.chance(0.98) ? `  description = "${this.sentence(6, 34)}"\n` : '';
    const validation =
      kind > 0.97
        ? `\n  validation {\n    condition     = var.${name} == null || contains(["${this.pick(WORDS)}", "${this.pick(WORDS)}"], var.${name})\n    error_message = "${this.sentence(5, 12)}."\n  }\n`
        : '';
    return `variable "${name}" {\n${description}  type        = ${type}\n  default     = ${fallback}\n${validation}}\n`;
  }

  dynamic(depth = 0) {
    const name = this.name();
    const attributes = [];
    for (let i = this.between(1, 4); i > 0; i--)
      attributes.push(`${'  '.repeat(depth + 3)}${this.key()} = try(${name}.value.${this.name()}, null)`);
    const inner = depth === 0 && this.chance(0.15) ? `\n${this.dynamic(depth + 1)}` : '';
    const pad = '  '.repeat(depth + 1);
    const forEach = this.chance(0.5) ? `var.${name} != null ? [var.${name}] : []` : `local.${name}_enabled ? [1] : []`;
    return `${pad}dynamic "${name}" {\n${pad}  for_each = ${forEach}\n\n${pad}  content {\n${attributes.join('\n')}${inner}\n${pad}  }\n${pad}}\n`;
  }

  resource(family, index) {
    this.keys.clear();
    const type = this.pick(family.types);
    const lines = [];
    const iterated = this.chance(0.2);
    if (iterated) lines.push(`  for_each = { for k, v in var.${this.name()} : k => v if v.create }`);
    else if (this.chance(0.4)) lines.push('  count = local.create ? 1 : 0');
    lines.push('');
    lines.push(`  name = ${iterated ? 'each.key' : `"\${var.name}-${index}"`}`);
    if (family.provider === 'google' && this.chance(0.2))
      lines.push(`  ${this.pick(['location', 'region'])} = var.region`);
    if (family.provider === 'google') lines.push('  project = var.project_id');
    for (let i = this.between(8, 24); i > 0; i--) {
      const value = this.pick([
        `var.${this.name()}`,
        `local.${this.name()}`,
        `"${this.pick(WORDS)}"`,
        `coalesce(var.${this.name()}, "${this.pick(WORDS)}")`,
        `var.${this.name()} ? "${this.pick(WORDS)}" : null`,
        String(this.between(1, 3600)),
      ]);
      lines.push(`  ${this.key()} = ${value}`);
    }
    let blocks = '';
    const dynamics = this.chance(0.6) ? this.between(1, 3) : 0;
    for (let i = 0; i < dynamics; i++) blocks += `\n${this.dynamic()}`;
    if (this.chance(0.4)) blocks += `\n  ${this.key()} {\n    ${this.key()} = var.${this.name()}\n  }\n`;
    if (this.chance(0.09))
      blocks += `\n  ${this.key()} = <<-EOT\n    #!/bin/bash\n    set -e\n    /etc/eks/bootstrap.sh \${var.name} --kubelet-extra-args '--node-labels=${this.pick(WORDS)}=true'\n  EOT\n`;
    if (this.chance(0.25))
      blocks += `\n  ${this.key()} = [for s in var.${this.name()} : s.id if s.${this.pick(WORDS)}]\n`;
    const tags = family.provider === 'aws' ? `\n  tags = merge(var.tags, { Name = "\${var.name}-${index}" })\n` : '';
    const comment = this.chance(0.3) ? `# ${this.sentence(5, 14)}\n` : '';
    return `${comment}resource "${type}" "${this.label()}" {\n${lines.join('\n')}\n${blocks}${tags}}\n`;
  }

  output(name) {
    const description = `  description = "${this.sentence(3, 10)}"\n`;
    return `output "${name}" {\n${description}  value       = try(${this.pick(OUTPUT_SOURCES)}.${this.name()}, null)\n}\n`;
  }

  locals() {
    this.keys.clear();
    const names = [];
    for (let i = this.between(7, 16); i > 0; i--) {
      const value = this.pick([
        `var.${this.name()} != null ? var.${this.name()} : "${this.pick(WORDS)}"`,
        `{ for k, v in var.${this.name()} : k => merge(v, { ${this.pick(WORDS)} = true }) }`,
        `{\n    ${this.key()} = var.${this.name()}\n    ${this.key()} = lookup(var.${this.name()}, "${this.pick(WORDS)}", null)\n    ${this.key()} = "${this.pick(WORDS)}"\n  }`,
        `var.${this.name()} == null ? null : {\n    ${this.key()} = var.${this.name()}\n    ${this.key()} = try(var.${this.name()}.${this.name()}, false)\n  }`,
        `merge(\n    var.${this.name()},\n    {\n      ${this.key()} = coalesce(var.${this.name()}, local.${this.name()})\n      ${this.key()} = var.${this.name()} ? "${this.pick(WORDS)}" : null\n      ${this.key()} = lookup(var.${this.name()}, "${this.pick(WORDS)}", [])\n    },\n  )`,
        `concat(var.${this.name()}, [local.${this.name()}])`,
      ]);
      names.push(`  ${this.key()} = ${value}`);
    }
    return `locals {\n${names.join('\n')}\n}\n`;
  }

  moduleCall(source) {
    this.keys.clear();
    const lines = [`  source = "${source}"`, ''];
    for (let i = this.between(10, 32); i > 0; i--) {
      const value = this.pick([
        `local.${this.name()}`,
        `"${this.pick(WORDS)}-${this.pick(WORDS)}"`,
        'module.network.subnets_ids',
        'true',
        `{\n    ${this.key()} = "${this.pick(WORDS)}"\n  }`,
      ]);
      lines.push(`  ${this.key()} = ${value}`);
    }
    return `module "${this.label()}" {\n${lines.join('\n')}\n}\n`;
  }
}

function versions(family, header) {
  return `${header}terraform {\n  required_version = ">= 1.5.7"\n\n  required_providers {\n    ${family.provider} = {\n      source  = "${family.source}"\n      version = "${family.version}"\n    }\n  }\n}\n`;
}

/** One module directory's files: most of the text is variables, resources and outputs, as in published modules. */
function moduleFiles(w, family, size) {
  const header = family.provider === 'google' ? LICENSE : '';
  const files = { 'versions.tf': versions(family, header) };
  let variables = header;
  let outputs = header;
  let main = header;
  if (w.chance(0.85)) files['locals.tf'] = `${header}${w.locals()}`;
  const count = Math.max(1, Math.round(size / 8000));
  for (let i = 0; i < count * 3.3; i++) variables += `\n${w.variable(`${w.name()}_${i}`)}`;
  for (let i = 0; i < count; i++) main += `\n${w.resource(family, i)}`;
  for (let i = w.between(0, 2); i > 0; i--)
    main += `\ndata "${w.pick(family.types)}" "${w.label()}" {\n  count = local.create ? 1 : 0\n  name  = var.name\n\n  filter {\n    name   = "${w.pick(WORDS)}"\n    values = [var.${w.name()}]\n  }\n}\n`;
  for (let i = 0; i < count * 3.3; i++) outputs += `\n${w.output(`${w.name()}_${i}`)}`;
  files['variables.tf'] = variables;
  files['main.tf'] = main;
  files['outputs.tf'] = outputs;
  return files;
}

/** An example: a provider, a few locals, calls of the module, and a handful of outputs. */
function exampleFiles(w, family, depth) {
  const header = family.provider === 'google' ? LICENSE : '';
  const region = { aws: 'eu-west-1', google: 'us-central1', azurerm: 'westeurope' }[family.provider];
  let main = `${header}provider "${family.provider}" {\n  ${family.provider === 'azurerm' ? 'features {}' : `region = local.region`}\n}\n\nlocals {\n  name   = "ex-${w.pick(WORDS)}"\n  region = "${region}"\n  azs    = ["a", "b", "c"]\n}\n`;
  for (let i = w.between(2, 6); i > 0; i--)
    main += `\n${w.moduleCall(depth === 1 ? '../../' : `../../modules/${w.pick(WORDS)}`)}`;
  let outputs = header;
  for (let i = w.between(1, 6); i > 0; i--) outputs += `\n${w.output(`${w.name()}_${i}`)}`;
  return {
    'main.tf': main,
    'outputs.tf': outputs,
    'variables.tf': w.variable('region'),
    'versions.tf': versions(family, ''),
  };
}

/**
 * Writes module repositories under `dir` until they hold about `targetBytes` of .tf text (Google, AWS and Azure in
 * the real corpus's proportions of text: 63 %, 30 %, 7 %); returns the paths written.
 */
export async function generateTree(dir, targetBytes = 1_000_000) {
  const w = new Writer(random(42));
  const paths = [];
  let written = 0;
  const write = async (at, files) => {
    await mkdir(at, { recursive: true });
    for (const [name, text] of Object.entries(files)) {
      await writeFile(join(at, name), text);
      paths.push(join(at, name));
      written += Buffer.byteLength(text);
    }
  };
  for (let repo = 0; written < targetBytes; repo++) {
    const share = repo % 14;
    const family = FAMILIES[share < 9 ? 1 : share < 13 ? 0 : 2];
    const root = join(dir, `terraform-${family.provider}-${String(repo).padStart(2, '0')}`);
    await write(root, moduleFiles(w, family, w.between(40000, 150000)));
    for (let i = w.between(2, 5); i > 0; i--)
      await write(join(root, 'modules', `${w.pick(WORDS)}-${i}`), moduleFiles(w, family, w.between(10000, 60000)));
    for (let i = w.between(2, 4); i > 0; i--)
      await write(join(root, 'examples', `${w.pick(WORDS)}-${i}`), exampleFiles(w, family, w.chance(0.5) ? 1 : 2));
  }
  return paths.sort();
}
