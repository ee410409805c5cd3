import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import type { CheckReport } from '../../src/check.js';
import type { Dependency, Finding, Incident } from '../../src/model.js';
import { checkToSarif } from '../../src/report/sarif.js';
import { FIXTURES, NOW, configuredReport, fixtureReport } from '../helpers/report-fixture.js';

// Our own subset of SARIF 2.1.0 (the official schema is not vendored): the structure code scanning reads.
const schema = JSON.parse(readFileSync(join(FIXTURES, 'sarif-2.1.0-subset.schema.json'), 'utf8')) as object;
const validate = new Ajv({ allErrors: true, strict: true, strictRequired: false }).compile(schema);

interface SarifResult {
  ruleId: string;
  level: string;
  locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }>;
  suppressions?: Array<{ kind: string; justification: string }>;
  properties: { incidentId: string };
}
type Sarif = { runs: Array<{ results: SarifResult[] }> };

/** The 1-based line where `needle` first appears in a fixture file, read from the file itself. */
function lineOf(file: string, needle: string): number {
  return (
    readFileSync(file, 'utf8')
      .split('\n')
      .findIndex((line) => line.includes(needle)) + 1
  );
}

describe('SARIF 2.1.0 output', () => {
  it('is valid against the schema subset, with one result per finding at the dependency line', async () => {
    const report = await fixtureReport();
    const sarif = checkToSarif(report, { now: NOW }) as Sarif;
    expect(validate(sarif), JSON.stringify(validate.errors)).toBe(true);
    const results = sarif.runs[0]?.results ?? [];
    expect(results).toHaveLength(report.findings.length);

    const manifest = join(FIXTURES, 'stack', 'package.json');
    const at = (id: string) =>
      results.find((result) => result.properties.incidentId === id)?.locations[0]?.physicalLocation;
    expect(at('stripe-2021-08-10-api')).toEqual({
      artifactLocation: { uri: manifest },
      region: { startLine: lineOf(manifest, '"stripe"') },
    });
    // The S3 incident lands on the S3 client, not on the DynamoDB one listed first.
    expect(at('aws-2021-08-10-s3-use1')?.region.startLine).toBe(lineOf(manifest, '"@aws-sdk/client-s3"'));

    const open = results.find((result) => result.properties.incidentId === 'gh-2021-08-11-actions');
    expect(open).toMatchObject({ ruleId: 'downstack/open-incident', level: 'error' });
    expect(results.filter((result) => result.level === 'warning')).toHaveLength(2);
  });

  it('locates a Terraform finding at its resource block', async () => {
    const base = await fixtureReport();
    const file = join(FIXTURES, 'terraform', 'main.tf');
    const dependency = (name: string, needle: string): Dependency => ({
      ecosystem: 'terraform-resource',
      name,
      file,
      line: lineOf(file, needle),
      direct: true,
      via: ['main.tf', name],
    });
    const bucket = dependency('aws_s3_bucket', 'resource "aws_s3_bucket"');
    const balancer = dependency('aws_lb', 'resource "aws_lb"');
    const incident: Incident = {
      provider: 'fx-aws',
      id: 'elb-2021-08-10',
      title: 'Elevated load balancer errors',
      url: 'https://health.aws.amazon.com/health/status#elb',
      status: 'resolved',
      impact: 'major',
      components: ['Elastic Load Balancing'],
      regions: ['us-east-1'],
      startedAt: '2021-08-10T19:40:00Z',
      resolvedAt: '2021-08-10T20:10:00Z',
      updates: [],
      source: 'fixture',
    };
    const finding: Finding = {
      provider: 'fx-aws',
      incident,
      components: ['Elastic Load Balancing'],
      active: false,
      confidence: 'certain',
      devOnly: false,
      replay: { from: incident.startedAt, to: incident.resolvedAt },
    };
    const report: CheckReport = {
      ...base,
      exposures: [
        {
          provider: 'fx-aws',
          components: [
            { name: 'Amazon Simple Storage Service', region: 'us-east-1', evidence: [bucket] },
            { name: 'Elastic Load Balancing', region: 'us-east-1', evidence: [balancer] },
          ],
          evidence: [bucket, balancer],
          devOnly: false,
        },
      ],
      findings: [finding],
      replay: [{ from: incident.startedAt, to: incident.resolvedAt, providers: ['fx-aws'] }],
    };
    const sarif = checkToSarif(report, { now: NOW }) as Sarif;
    expect(validate(sarif)).toBe(true);
    expect(sarif.runs[0]?.results[0]?.locations[0]?.physicalLocation.region.startLine).toBe(
      lineOf(file, 'resource "aws_lb"'),
    );
    expect(lineOf(file, 'resource "aws_lb"')).toBe(18);
  });

  it('keeps ignored findings as suppressed results that cite the rule', async () => {
    const { report, notes } = await configuredReport();
    const sarif = checkToSarif(report, { now: NOW, notes }) as Sarif;
    expect(validate(sarif)).toBe(true);
    const suppressed = (sarif.runs[0]?.results ?? []).filter((result) => result.suppressions);
    expect(suppressed.map((result) => result.properties.incidentId)).toEqual(['gh-2021-08-11-actions']);
    expect(suppressed[0]?.suppressions?.[0]?.justification).toContain('.downstack.yml:9');
  });

  it('the schema subset rejects a result without a line or with an unknown level', async () => {
    const sarif = checkToSarif(await fixtureReport(), { now: NOW }) as Sarif;
    const broken = structuredClone(sarif) as Sarif & { runs: Array<{ results: Array<Record<string, unknown>> }> };
    delete (
      broken.runs[0]!.results[0] as {
        locations: Array<{ physicalLocation: { region: Partial<{ startLine: number }> } }>;
      }
    ).locations[0]!.physicalLocation.region.startLine;
    expect(validate(broken)).toBe(false);
    const badLevel = structuredClone(sarif) as Sarif;
    (badLevel.runs[0]?.results[0] as { level: string }).level = 'fatal';
    expect(validate(badLevel)).toBe(false);
  });
});
