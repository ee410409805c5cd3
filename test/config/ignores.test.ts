import { describe, expect, it } from 'vitest';
import { applyIgnores, describeExpired, expiresAt } from '../../src/config/ignores.js';
import type { IgnoreRule } from '../../src/config/load.js';
import { NOW, fixtureReport } from '../helpers/report-fixture.js';

const rule = (fields: Partial<IgnoreRule>): IgnoreRule => ({
  provider: 'fx-github',
  reason: 'we only call the REST API',
  expires: '2099-12-31',
  file: '.downstack.yml',
  line: 3,
  ...fields,
});

describe('ignore rules', () => {
  it('a bare date holds through that whole UTC day', async () => {
    expect(expiresAt({ expires: '2021-08-11' }).toISOString()).toBe('2021-08-12T00:00:00.000Z');
    expect(expiresAt({ expires: '2021-08-11T18:00Z' }).toISOString()).toBe('2021-08-11T18:00:00.000Z');
    const findings = (await fixtureReport()).findings.filter((finding) => finding.provider === 'fx-github');
    expect(
      applyIgnores(findings, [rule({ expires: '2021-08-11' })], new Date('2021-08-11T23:59:59Z')).ignored,
    ).toHaveLength(1);
    expect(
      applyIgnores(findings, [rule({ expires: '2021-08-11' })], new Date('2021-08-12T00:00:00Z')).ignored,
    ).toHaveLength(0);
  });

  it('hides a finding only while the rule lives, and re-plans the replay windows without it', async () => {
    const report = await fixtureReport();
    const live = applyIgnores(report.findings, [rule({ incident: 'gh-2021-08-11-actions' })], NOW);
    expect(live.findings.map((finding) => finding.provider)).toEqual(['fx-stripe', 'fx-aws']);
    expect(live.ignored.map(({ finding }) => finding.incident.id)).toEqual(['gh-2021-08-11-actions']);
    expect(live.replay).toEqual([
      { from: '2021-08-10T19:39:00Z', to: '2021-08-10T21:05:00Z', providers: ['fx-aws', 'fx-stripe'] },
    ]);

    const expired = applyIgnores(
      report.findings,
      [rule({ incident: 'gh-2021-08-11-actions', expires: '2021-08-01' })],
      NOW,
    );
    expect(expired.findings).toHaveLength(3);
    expect(expired.ignored).toEqual([]);
    expect(expired.expired[0]?.matches.map((finding) => finding.incident.id)).toEqual(['gh-2021-08-11-actions']);
    expect(describeExpired(expired.expired[0] as never)).toBe(
      '.downstack.yml:3: ignore for fx-github / gh-2021-08-11-actions expired on 2021-08-01 ("we only call the REST API"); no longer ignored — 1 finding counts again',
    );
  });

  it('a component rule only covers what it names', async () => {
    const report = await fixtureReport();
    // The GitHub incident touched Actions and Webhooks: ignoring Actions alone leaves it counted.
    expect(applyIgnores(report.findings, [rule({ component: 'actions' })], NOW).ignored).toEqual([]);
    const both = applyIgnores(
      report.findings,
      [rule({ component: 'Actions' }), rule({ component: 'Webhooks', line: 7 })],
      NOW,
    );
    expect(both.ignored).toHaveLength(1);
    expect(both.ignored[0]?.rules.map((r) => r.line)).toEqual([3, 7]);
  });

  it('a rule for another provider or incident ignores nothing', async () => {
    const report = await fixtureReport();
    expect(
      applyIgnores(report.findings, [rule({ provider: 'fx-sendgrid' }), rule({ incident: 'gh-other' })], NOW).findings,
    ).toHaveLength(3);
  });
});
