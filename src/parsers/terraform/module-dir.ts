// A Terraform module is a directory: its .tf/.tf.json files form one namespace, and its .tfvars files set the root
// module's variables (https://developer.hashicorp.com/terraform/language/values/variables#variable-definition-precedence).
import { posix } from 'node:path';
import type { InputProblem } from '../../model.js';
import {
  fileKind,
  lineOfAttribute,
  readConfigFile,
  type Block,
  type Body,
  type ConfigFile,
  type FileKind,
  type ReadOptions,
} from './config-files.js';
import { isRecord } from '../../json-text.js';

export interface SourceFile {
  path: string;
  text: string;
  /** For texts without a telling name (stdin); otherwise taken from the file name. */
  kind?: FileKind;
}

export interface VarFile {
  path: string;
  values: ConfigFile['values'];
}

export interface ModuleCall {
  name: string;
  block: Block;
  source: string;
  version?: string;
  /** Directory of a local source (`./…`, `../…`), relative to the scan like every path here. */
  localDir?: string;
}

export interface ModuleDir {
  dir: string;
  files: ConfigFile[];
  /** `terraform { required_providers { … } }` entries by local name. */
  requiredProviders: Map<string, { source?: string; version?: string; block: Block; line: number }>;
  providers: Block[];
  variables: Map<string, Block>;
  locals: Block[];
  /** `resource` and `data` blocks. */
  resources: Block[];
  calls: ModuleCall[];
  /** terraform.tfvars and *.auto.tfvars, in the order Terraform loads them (later wins). */
  autoVarFiles: VarFile[];
  /** Other *.tfvars: each is one way the module is applied (`-var-file`). */
  explicitVarFiles: VarFile[];
  errors: InputProblem[];
}

export function directoryOf(path: string): string {
  const normalized = path.replace(/\\/g, '/');
  const slash = normalized.lastIndexOf('/');
  return slash < 0 ? '.' : slash === 0 ? '/' : normalized.slice(0, slash);
}

export function readModuleDir(dir: string, sources: SourceFile[], options?: ReadOptions): ModuleDir {
  const module: ModuleDir = {
    dir,
    files: [],
    requiredProviders: new Map(),
    providers: [],
    variables: new Map(),
    locals: [],
    resources: [],
    calls: [],
    autoVarFiles: [],
    explicitVarFiles: [],
    errors: [],
  };
  const ordered = [...sources].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const source of ordered) {
    const kind = source.kind ?? fileKind(source.path);
    if (!kind) continue;
    const file = readConfigFile(source.text, source.path, kind, options);
    module.files.push(file);
    if (kind === 'tfvars' || kind === 'tfvars-json') {
      const name = source.path.slice(source.path.lastIndexOf('/') + 1);
      const auto =
        name === 'terraform.tfvars' || name === 'terraform.tfvars.json' || /\.auto\.tfvars(\.json)?$/.test(name);
      (auto ? module.autoVarFiles : module.explicitVarFiles).push({ path: source.path, values: file.values });
      continue;
    }
    for (const block of file.blocks) addBlock(module, block);
  }
  // Terraform loads terraform.tfvars, then terraform.tfvars.json, then *.auto.tfvars in lexical order.
  module.autoVarFiles.sort((a, b) => autoRank(a.path) - autoRank(b.path));
  return module;
}

function autoRank(path: string): number {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name === 'terraform.tfvars' ? 0 : name === 'terraform.tfvars.json' ? 1 : 2;
}

function addBlock(module: ModuleDir, block: Block): void {
  switch (block.type) {
    case 'resource':
    case 'data':
      if (block.labels.length === 2) module.resources.push(block);
      break;
    case 'provider':
      module.providers.push(block);
      break;
    case 'variable':
      if (block.labels[0]) module.variables.set(block.labels[0], block);
      break;
    case 'locals':
      module.locals.push(block);
      break;
    case 'terraform':
      readRequiredProviders(module, block);
      break;
    case 'module':
      readModuleCall(module, block);
      break;
  }
}

function readRequiredProviders(module: ModuleDir, block: Block): void {
  for (const entry of block.view()?.blocks('required_providers') ?? []) {
    for (const local of entry.names()) {
      const spec = entry.get(local);
      // Terraform 0.12 wrote `aws = "~> 2.0"`: a bare version, the source implied as hashicorp/<name>.
      if (typeof spec === 'string')
        module.requiredProviders.set(local, { version: spec, block, line: lineOfAttribute(block, local) });
      else if (isRecord(spec)) {
        module.requiredProviders.set(local, {
          ...(typeof spec.source === 'string' ? { source: spec.source } : {}),
          ...(typeof spec.version === 'string' ? { version: spec.version } : {}),
          block,
          line: lineOfAttribute(block, local),
        });
      }
    }
  }
}

function readModuleCall(module: ModuleDir, block: Block): void {
  const name = block.labels[0];
  const body = block.view();
  if (!name || !body) return;
  const source = body.get('source');
  if (typeof source !== 'string' || source.includes('${')) {
    module.errors.push({
      file: block.file,
      line: block.line,
      message: `module "${name}": "source" must be a literal string; the module is not followed`,
    });
    return;
  }
  const local = source.startsWith('./') || source.startsWith('../');
  const version = body.get('version');
  module.calls.push({
    name,
    block,
    source,
    ...(typeof version === 'string' ? { version } : {}),
    ...(local ? { localDir: posix.normalize(posix.join(module.dir, source)).replace(/\/$/, '') } : {}),
  });
}

/**
 * Where `terraform init` puts a module that is not local: `.terraform/modules/<key>` under the root module, the key
 * being the call names from the root joined by dots, plus the `//subdir` of the source.
 */
export function downloadedModuleDir(rootDir: string, key: string[], source: string): string {
  const address = source.replace(/^[\w+.-]+::/, '').replace(/^[a-z][\w+.-]*:\/\//i, '');
  const subdir = address.split('//')[1]?.split('?')[0] ?? '';
  return posix.normalize(posix.join(rootDir, '.terraform', 'modules', key.join('.'), subdir)).replace(/\/$/, '');
}

/** Module call names from the root, out of a `via` chain (`[root, 'module.a', 'module.b']`). */
export function moduleKey(via: string[]): string[] {
  return via.slice(1).map((label) => label.replace(/^module\./, ''));
}

/** Every problem of the module's files, including those found while evaluating (bodies parse on demand). */
export function moduleProblems(module: ModuleDir): InputProblem[] {
  return [...module.errors, ...module.files.flatMap((file) => file.errors)];
}

export type { Block, Body };
