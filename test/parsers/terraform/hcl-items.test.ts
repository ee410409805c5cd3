import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readShallow } from '../../../src/parsers/terraform/body-view.js';
import { type HclBlockItem, splitHcl } from '../../../src/parsers/terraform/hcl-items.js';

const fixture = (path: string) =>
  readFileSync(new URL(`../../fixtures/terraform/configs/${path}`, import.meta.url), 'utf8');

describe('splitHcl', () => {
  it('finds every top-level block with its labels and line, past braces in strings, heredocs and comments', () => {
    const split = splitHcl(fixture('root-with-modules/monitoring.tf'));
    expect(split.errors).toEqual([]);
    expect(split.items.map((item) => (item.kind === 'block' ? [item.type, ...item.labels, item.line] : item))).toEqual([
      ['resource', 'datadog_monitor', 'lb_5xx', 1],
      ['resource', 'twingate_remote_network', 'office', 19],
    ]);
  });

  it('keeps escaped quotes and braces inside strings and interpolations', () => {
    const split = splitHcl(fixture('root-with-modules/dns.tf'));
    expect(split.errors).toEqual([]);
    expect(
      split.items.map((item) => item.kind === 'block' && `${item.type} ${item.labels.join(' ')} @${item.line}`),
    ).toEqual(['resource cloudflare_record shop @1', 'variable cloudflare_zone_id @12']);
  });

  it('reports a broken block at its own line and goes on with the next block', () => {
    const split = splitHcl(fixture('broken-blocks/main.tf'));
    expect(split.errors).toEqual([
      {
        line: 9,
        message: 'resource "aws_lb" "unterminated_string": string is not closed on its line (line 10); skipped',
      },
      { line: 23, message: 'resource "aws_sqs_queue" "never_closed": "{" is never closed; skipped' },
    ]);
    const names = split.items.map((item) =>
      item.kind === 'block' ? `${item.type}.${item.labels.join('.')}` : item.name,
    );
    expect(names).toEqual([
      'provider.aws',
      'resource.aws_s3_bucket.ok_before',
      'provider.aws',
      'resource.aws_lb.ok_after',
      'resource.aws_sns_topic.after_unclosed',
    ]);
  });

  it('reads top-level attributes (a .tfvars file), multi-line values included', () => {
    const split = splitHcl('region = "eu-west-2" # primary\nzones = [\n  "a",\n  "b",\n]\ntags = { team = "x" }\n');
    expect(split.errors).toEqual([]);
    expect(split.items.map((item) => item.kind === 'attribute' && [item.name, item.line, item.text])).toEqual([
      ['region', 1, 'region = "eu-west-2" # primary'],
      ['zones', 2, 'zones = [\n  "a",\n  "b",\n]'],
      ['tags', 6, 'tags = { team = "x" }'],
    ]);
  });

  it('skips a heredoc whose body holds a block header in column 0 and a lone closing brace', () => {
    const text =
      'resource "aws_instance" "web" {\n  user_data = <<EOT\n}\nresource "x" "y" {\nEOT\n}\n\nresource "aws_eip" "ip" {}\n';
    const split = splitHcl(text);
    expect(split.errors).toEqual([]);
    expect(split.items.map((item) => item.kind === 'block' && item.labels[0])).toEqual(['aws_instance', 'aws_eip']);
  });

  it('takes an indented heredoc with blank lines to its indented closing marker', () => {
    const text =
      'module "workers" {\n  source = "./modules/node-group"\n\n  bootstrap_extra_args = <<-EOT\n    [settings.kubernetes]\n\n    max-pods = 58\n      \n  }\n  EOT\n\n  name = "workers"\n}\n\nresource "aws_eip" "ip" {}\n';
    const split = splitHcl(text);
    expect(split.errors).toEqual([]);
    expect(split.items.map((item) => item.kind === 'block' && [item.type, item.line])).toEqual([
      ['module', 1],
      ['resource', 15],
    ]);
    const shallow = readShallow((split.items[0] as HclBlockItem).body);
    expect([...(shallow?.attributes.keys() ?? [])]).toEqual(['source', 'bootstrap_extra_args', 'name']);
  });

  it('reports an unclosed heredoc and an unclosed comment with the line of their block', () => {
    const split = splitHcl('resource "a_b" "c" {\n  x = <<EOT\n  never ends\n}\n');
    expect(split.errors).toEqual([
      { line: 1, message: 'resource "a_b" "c": heredoc <<EOT is never closed (line 2); skipped' },
    ]);
    const comment = splitHcl('/* open\nresource "a_b" "c" {}\n');
    expect(comment.errors).toEqual([
      { line: 1, message: 'comment is never closed; the text up to the next block is skipped' },
    ]);
    expect(comment.items.map((item) => item.kind === 'block' && item.labels[1])).toEqual(['c']);
  });

  it('reports a stray closing brace at the top level', () => {
    const split = splitHcl('resource "a_b" "c" {\n}\n}\nresource "a_b" "d" {\n}\n');
    expect(split.errors).toEqual([{ line: 3, message: 'this item: unexpected "}" at the top level; skipped' }]);
    expect(split.items.map((item) => item.kind === 'block' && item.labels[1])).toEqual(['c', 'd']);
  });
});

describe('splitHcl on arbitrary text', () => {
  it('never throws, and reports problems only at lines that exist', async () => {
    const fc = (await import('fast-check')).default;
    const pieces = fc.constantFrom(
      'resource "a_b" "c" {',
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
      'variable "v" {}\n',
      '\\"',
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        const lines = text.split('\n').length;
        const split = splitHcl(text);
        return split.errors.every((error) => error.line >= 1 && error.line <= lines);
      }),
      { numRuns: 500 },
    );
  });
});
