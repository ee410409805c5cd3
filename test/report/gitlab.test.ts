// `--format gitlab`: a GitLab Code Quality report, held to the fields GitLab documents for the merge request widget.
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { checkToCodeQuality } from '../../src/report/gitlab.js';
import { configuredReport, fixtureReport, NOW } from '../helpers/report-fixture.js';

// What GitLab reads of each entry (https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format).
const CODE_QUALITY = {
  type: 'array',
  items: {
    type: 'object',
    required: ['description', 'check_name', 'fingerprint', 'severity', 'location'],
    properties: {
      description: { type: 'string', minLength: 1 },
      check_name: { type: 'string', minLength: 1 },
      fingerprint: { type: 'string', minLength: 1 },
      severity: { enum: ['info', 'minor', 'major', 'critical', 'blocker'] },
      location: {
        type: 'object',
        required: ['path', 'lines'],
        properties: {
          path: { type: 'string', minLength: 1, not: { pattern: '^/' } },
          lines: { type: 'object', required: ['begin'], properties: { begin: { type: 'integer', minimum: 1 } } },
        },
      },
    },
  },
};
const validate = new Ajv({ allErrors: true, strict: true }).compile(CODE_QUALITY);

describe('GitLab Code Quality report', () => {
  it('has one entry per finding, on the line that declares the dependency, open incidents critical', async () => {
    const issues = checkToCodeQuality(await fixtureReport(), { now: NOW });
    expect(validate(issues), JSON.stringify(validate.errors)).toBe(true);
    expect(
      issues.map((issue) => [issue.check_name, issue.severity, issue.location.path, issue.location.lines.begin]),
    ).toEqual([
      ['downstack/open-incident', 'critical', 'test/fixtures/report/stack/package.json', 8],
      ['downstack/incident-in-window', 'minor', 'test/fixtures/report/stack/package.json', 11],
      ['downstack/incident-in-window', 'minor', 'test/fixtures/report/stack/package.json', 7],
    ]);
    expect(new Set(issues.map((issue) => issue.fingerprint)).size).toBe(issues.length);
  });

  it('keeps the same fingerprint from run to run, so a merge request shows one entry per incident', async () => {
    const first = checkToCodeQuality(await fixtureReport(), { now: NOW });
    const later = checkToCodeQuality(await fixtureReport(), { now: new Date('2021-08-12T09:00:00Z') });
    expect(later.map((issue) => issue.fingerprint)).toEqual(first.map((issue) => issue.fingerprint));
  });

  it('leaves ignored findings out and points an expired ignore rule at its line in .downstack.yml', async () => {
    const { report, notes } = await configuredReport();
    const issues = checkToCodeQuality(report, { now: NOW, notes });
    expect(validate(issues)).toBe(true);
    expect(issues.map((issue) => issue.description)).not.toContainEqual(expect.stringContaining('Actions'));
    expect(issues.at(-1)).toMatchObject({
      check_name: 'downstack/expired-ignore',
      location: { path: 'test/fixtures/report/configured-stack/.downstack.yml', lines: { begin: 13 } },
    });
  });

  it('is a format .downstack.yml may choose, with no change outside the list of formats', () => {
    expect(parseConfig('format: gitlab\n', 'ci/.downstack.yml').config.options).toEqual({ format: 'gitlab' });
  });
});
