import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createFileAccess } from '../../../src/file-access.js';
import { createTerraformParser } from '../../../src/parsers/terraform-config.js';
import { readShallow } from '../../../src/parsers/terraform/body-view.js';
import { hclParseCount } from '../../../src/parsers/terraform/hcl-parser.js';
import { OPAQUE, resolvableValue } from '../../../src/parsers/terraform/hcl-values.js';
import { splitHcl } from '../../../src/parsers/terraform/hcl-items.js';
import type { SourceFile } from '../../../src/parsers/types.js';

const CONFIGS = fileURLToPath(new URL('../../fixtures/terraform/configs/', import.meta.url));

/** Every fixture directory holding Terraform files, with its files; the test does its own reading. */
function fixtureDirectories(): Array<{ dir: string; files: SourceFile[] }> {
  const out: Array<{ dir: string; files: SourceFile[] }> = [];
  const visit = (dir: string) => {
    const entries = readdirSync(dir, { withFileTypes: true });
    const files = entries
      .filter((entry) => entry.isFile() && /\.(tf|tf\.json|tfvars|tfvars\.json)$/.test(entry.name))
      .map((entry) => ({ path: join(dir, entry.name), text: readFileSync(join(dir, entry.name), 'utf8') }));
    if (files.length > 0) out.push({ dir, files });
    for (const entry of entries) if (entry.isDirectory()) visit(join(dir, entry.name));
  };
  visit(CONFIGS);
  return out;
}

/** The core's own handle over the fixtures, for the modules the configurations call. */
const files = createFileAccess([CONFIGS]);

describe('the shallow reader (the fast path)', () => {
  const directories = fixtureDirectories();

  it('has fixtures where it reads values exactly, marks them opaque, and leaves them to the full parser', () => {
    const counts = { exact: 0, opaque: 0, declined: 0 };
    for (const item of directories.flatMap((entry) => entry.files).flatMap((file) => splitHcl(file.text).items)) {
      const shallow = item.kind === 'block' ? readShallow(item.body) : undefined;
      for (const expression of shallow?.attributes.values() ?? []) {
        const read = resolvableValue(expression);
        if (!read) counts.declined++;
        else if (read.value === OPAQUE) counts.opaque++;
        else counts.exact++;
      }
    }
    expect(counts.exact).toBeGreaterThan(100);
    expect(counts.opaque).toBeGreaterThan(10);
    expect(counts.declined).toBeGreaterThan(0);
  });

  it.each(directories.map((entry) => [entry.dir.slice(CONFIGS.length), entry] as const))(
    'extracts exactly what a full parse extracts: %s',
    async (_name, entry) => {
      const fast = await createTerraformParser({ fastPath: true }).parseTogether?.(entry.files, files);
      const full = await createTerraformParser({ fastPath: false }).parseTogether?.(entry.files, files);
      expect(fast?.map((input) => [input.file, input.dependencies, input.jobs, input.errors])).toEqual(
        full?.map((input) => [input.file, input.dependencies, input.jobs, input.errors]),
      );
    },
  );

  it('reads schedules, DNS zones and records and indented heredocs with blank lines without hcl2-parser', async () => {
    const entry = directories.find((candidate) => candidate.dir.endsWith('/schedules-and-dns'));
    if (!entry) throw new Error('the schedules-and-dns fixture is missing');
    const files = createFileAccess([entry.dir]);
    const parsesBefore = hclParseCount();
    const fast = (await createTerraformParser({ fastPath: true }).parseTogether?.(entry.files, files)) ?? [];
    expect(hclParseCount() - parsesBefore).toBe(0);

    const full = (await createTerraformParser({ fastPath: false }).parseTogether?.(entry.files, files)) ?? [];
    expect(hclParseCount() - parsesBefore).toBeGreaterThan(30);
    const outcome = (results: typeof fast) =>
      results.map((input) => [input.file.slice(entry.dir.length), input.dependencies, input.jobs, input.errors]);
    expect(outcome(fast)).toEqual(outcome(full));

    const jobs = fast.flatMap((input) => input.jobs ?? []);
    expect(jobs.map((job) => [job.name, job.schedule])).toEqual([
      ['aws_cloudwatch_event_rule.report', 'cron(30 1 * * ? *)'],
      ['aws_scheduler_schedule.cleanup', 'cron(0 3 ? * SUN *)'],
      ['google_cloud_scheduler_job.sync', '*/15 * * * *'],
      ['google_cloud_scheduler_job.warmup', '0 6 * * 1-5'],
      ['azurerm_logic_app_trigger_recurrence.digest', '0 8 * * 1'],
    ]);
    // The rule's target block names the Lambda it runs; the schedule's target block the queue it feeds.
    const touched = (name: string) => jobs.find((job) => job.name === name)?.touches.map((touch) => touch.name);
    expect(touched('aws_cloudwatch_event_rule.report')).toContain('aws_lambda_function');
    expect(touched('aws_scheduler_schedule.cleanup')).toContain('aws_sqs_queue');

    const domains = fast.flatMap((input) => input.dependencies).filter((found) => found.ecosystem === 'domain');
    // The private zone (it has a vpc block) is not a domain of the team's.
    expect([...new Set(domains.map((found) => found.name))].sort()).toEqual([
      'docs.example.org',
      'shop-brand.example.net',
      'shop.example.org',
      'status',
      'www.shop-brand.example.net',
    ]);
    expect(domains.flatMap((found) => found.dns ?? []).map((record) => `${record.type} ${record.value}`)).toEqual([
      'ALIAS d111111abcdef8.cloudfront.net',
      'MX aspmx.l.google.com',
      'MX alt1.aspmx.l.google.com',
      'SPF include:_spf.google.com',
      'SPF include:sendgrid.net',
      'CNAME statuspage.betteruptime.com',
      'CNAME hosting.gitbook.io',
      'CNAME shop-brand.azurefd.net',
      'MX shop-brand-example-net.mail.protection.outlook.com',
    ]);
  });

  it('extracts exactly what a full parse extracts when every fixture directory is scanned together', async () => {
    const all = directories.flatMap((entry) => entry.files);
    const fast = (await createTerraformParser({ fastPath: true }).parseTogether?.(all, files)) ?? [];
    const full = (await createTerraformParser({ fastPath: false }).parseTogether?.(all, files)) ?? [];
    expect(fast.flatMap((input) => input.dependencies)).toEqual(full.flatMap((input) => input.dependencies));
    expect(fast.flatMap((input) => input.dependencies).length).toBeGreaterThan(50);
  });
});
