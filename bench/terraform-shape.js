// The statistics that decide what a Terraform scan costs, for any tree: how big the files are, which share of the
// text each top-level block kind holds, how long variables are and what they carry (description, object type,
// validation), and how often the constructs that once sent blocks to the full parser appear (locals, module calls,
// dynamic blocks, heredocs, for expressions, Google resources with a location). bench/terraform.js prints them for
// the real corpus and for the generated fallback side by side, so the calibration can be checked.
import { readFileSync } from 'node:fs';

const dist = new URL('../dist/', import.meta.url);

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

/** Statistics of the native .tf files among `paths` (.tfvars and JSON are too rare in real modules to matter). */
export async function shapeOf(paths) {
  const { splitHcl } = await import(new URL('parsers/terraform/hcl-items.js', dist).href);
  const sizes = [];
  const kindBytes = new Map();
  let bytes = 0;
  const variables = { count: 0, bytes: 0, description: 0, object: 0, validation: 0 };
  const counts = { locals: 0, localNames: 0, modules: 0, outputs: 0, resources: 0, google: 0, googleLocated: 0 };
  let commentBytes = 0;
  const constructs = { dynamic: 0, heredoc: 0, for: 0 };
  for (const path of paths) {
    if (!path.endsWith('.tf')) continue;
    const text = readFileSync(path, 'utf8');
    const size = Buffer.byteLength(text);
    sizes.push(size);
    bytes += size;
    for (const comment of text.match(/\/\*[\s\S]*?\*\/|^[ \t]*(#|\/\/).*$/gm) ?? []) commentBytes += comment.length;
    constructs.dynamic += (text.match(/^\s*dynamic\s+"/gm) ?? []).length;
    constructs.heredoc += (text.match(/<<-?[A-Za-z_]/g) ?? []).length;
    constructs.for += (text.match(/[[{]\s*for\s+\w+/g) ?? []).length;
    for (const item of splitHcl(text).items) {
      if (item.kind !== 'block') continue;
      const length = Buffer.byteLength(item.text);
      kindBytes.set(item.type, (kindBytes.get(item.type) ?? 0) + length);
      if (item.type === 'variable') {
        variables.count++;
        variables.bytes += length;
        if (/^\s*description\s*=/m.test(item.body)) variables.description++;
        if (/^\s*type\s*=\s*(object|list\(object|map\(object|set\(object)/m.test(item.body)) variables.object++;
        if (/^\s*validation\s*\{/m.test(item.body)) variables.validation++;
      } else if (item.type === 'locals') {
        counts.locals++;
        counts.localNames += splitHcl(item.body).items.filter((inner) => inner.kind === 'attribute').length;
      } else if (item.type === 'module') counts.modules++;
      else if (item.type === 'output') counts.outputs++;
      else if (item.type === 'resource' || item.type === 'data') {
        counts.resources++;
        if (item.labels[0]?.startsWith('google_')) {
          counts.google++;
          if (/^\s*(location|region|zone)\s*=/m.test(item.body)) counts.googleLocated++;
        }
      }
    }
  }
  sizes.sort((a, b) => a - b);
  const perHundredKb = (n) => (bytes === 0 ? 0 : (n * 1e5) / bytes);
  return {
    files: sizes.length,
    bytes,
    size: { median: percentile(sizes, 50), p90: percentile(sizes, 90), max: sizes.at(-1) ?? 0 },
    share: Object.fromEntries([...kindBytes].map(([kind, n]) => [kind, n / bytes])),
    comments: commentBytes / bytes,
    variables: {
      perHundredKb: perHundredKb(variables.count),
      meanBytes: variables.count ? variables.bytes / variables.count : 0,
      description: variables.count ? variables.description / variables.count : 0,
      object: variables.count ? variables.object / variables.count : 0,
      validation: variables.count ? variables.validation / variables.count : 0,
    },
    perHundredKb: {
      locals: perHundredKb(counts.locals),
      localNames: perHundredKb(counts.localNames),
      modules: perHundredKb(counts.modules),
      outputs: perHundredKb(counts.outputs),
      resources: perHundredKb(counts.resources),
      googleLocated: perHundredKb(counts.googleLocated),
      dynamic: perHundredKb(constructs.dynamic),
      heredoc: perHundredKb(constructs.heredoc),
      for: perHundredKb(constructs.for),
    },
  };
}

const percent = (x) => `${(100 * x).toFixed(0)}%`;
const one = (x) => x.toFixed(1);

/** Rows of figures, one column per named shape, for printing side by side. */
export function shapeRows(shapes) {
  const row = (label, pick) => [label, ...shapes.map((shape) => pick(shape))];
  const share = (kind) => (shape) => percent(shape.share[kind] ?? 0);
  return [
    row('files', (s) => String(s.files)),
    row('MB', (s) => (s.bytes / 1e6).toFixed(2)),
    row('file bytes median / p90 / max', (s) => `${s.size.median} / ${s.size.p90} / ${s.size.max}`),
    row('text share: variable', share('variable')),
    row('text share: resource', share('resource')),
    row('text share: module', share('module')),
    row('text share: output', share('output')),
    row('text share: locals', share('locals')),
    row('text share: data', share('data')),
    row('text share: comments', (s) => percent(s.comments)),
    row('variables per 100 KB', (s) => one(s.variables.perHundredKb)),
    row('variable mean bytes', (s) => one(s.variables.meanBytes)),
    row('variables with description', (s) => percent(s.variables.description)),
    row('variables with an object type', (s) => percent(s.variables.object)),
    row('variables with validation', (s) => percent(s.variables.validation)),
    row('locals blocks per 100 KB', (s) => one(s.perHundredKb.locals)),
    row('local names per 100 KB', (s) => one(s.perHundredKb.localNames)),
    row('module calls per 100 KB', (s) => one(s.perHundredKb.modules)),
    row('outputs per 100 KB', (s) => one(s.perHundredKb.outputs)),
    row('resources and data per 100 KB', (s) => one(s.perHundredKb.resources)),
    row('google resources with location per 100 KB', (s) => one(s.perHundredKb.googleLocated)),
    row('dynamic blocks per 100 KB', (s) => one(s.perHundredKb.dynamic)),
    row('heredocs per 100 KB', (s) => one(s.perHundredKb.heredoc)),
    row('for expressions per 100 KB', (s) => one(s.perHundredKb.for)),
  ];
}
