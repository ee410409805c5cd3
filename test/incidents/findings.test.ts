import { describe, expect, it } from 'vitest';
import { findIncidents } from '../../src/incidents/findings.js';
import { testCatalog } from '../helpers/catalog.js';
import type { Exposure, Incident } from '../../src/model.js';

const catalog = testCatalog(['aws', 'google-cloud', 'heroku', 'stripe', 'twingate']);
const options = {
  since: new Date('2022-07-01T00:00:00Z'),
  until: new Date('2022-07-31T00:00:00Z'),
  now: new Date('2026-01-01T00:00:00Z'),
};
const elb: Incident = {
  provider: 'aws',
  id: 'nlb-euw2',
  title: 'NLB health checks',
  url: '',
  status: 'resolved',
  impact: 'minor',
  components: ['Elastic Load Balancing'],
  regions: ['eu-west-2'],
  startedAt: '2022-07-11T09:33:00Z',
  resolvedAt: '2022-07-11T16:07:00Z',
  updates: [],
  source: 'test',
};
const exposure = (components: Exposure['components'], extra: Partial<Exposure> = {}): Exposure => ({
  provider: 'aws',
  components,
  evidence: [],
  devOnly: false,
  ...extra,
});
const find = (exposures: Exposure[], incident: Incident = elb) =>
  findIncidents(exposures, new Map([['aws', [incident]]]), catalog, options);

describe('findings honour components and regions', () => {
  it('matches an exposure in the incident’s region', () => {
    expect(find([exposure([{ name: 'Elastic Load Balancing', region: 'eu-west-2' }])])).toMatchObject([
      { confidence: 'certain', components: ['Elastic Load Balancing'] },
    ]);
  });

  it('does not match the same component in another region', () => {
    expect(find([exposure([{ name: 'Elastic Load Balancing', region: 'us-east-1' }])])).toEqual([]);
  });

  it('flags an exposure with unknown region as "possibly"', () => {
    expect(find([exposure([{ name: 'Elastic Load Balancing' }])])).toMatchObject([{ confidence: 'possibly' }]);
  });

  it('does not match other components of the provider', () => {
    expect(find([exposure([{ name: 'Amazon DynamoDB', region: 'eu-west-2' }])])).toEqual([]);
  });

  it('matches component aliases and "<Group> - <Component>" names', () => {
    const s3 = { ...elb, id: 's3', components: ['Storage - Amazon S3'], regions: [] };
    expect(find([exposure([{ name: 'Amazon Simple Storage Service' }])], s3)).toMatchObject([
      { confidence: 'certain', components: ['Amazon Simple Storage Service'] },
    ]);
  });

  it('treats an incident that names no component as touching the whole provider', () => {
    const wide = { ...elb, components: [], regions: [] };
    expect(find([exposure([{ name: 'Amazon DynamoDB' }])], wide)).toMatchObject([{ confidence: 'certain' }]);
  });

  it('exposes whole-provider evidence to every component, and leaves maintenance out by default', () => {
    expect(find([exposure([], { wholeProvider: true })], { ...elb, regions: [] })).toMatchObject([
      { components: ['Elastic Load Balancing'] },
    ]);
    expect(find([exposure([], { wholeProvider: true })], { ...elb, regions: [], kind: 'maintenance' })).toEqual([]);
  });

  it('ignores incidents outside the window and keeps open ones that began before it', () => {
    const earlier = { ...elb, startedAt: '2022-06-01T00:00:00Z', resolvedAt: '2022-06-02T00:00:00Z' };
    expect(find([exposure([{ name: 'Elastic Load Balancing', region: 'eu-west-2' }])], earlier)).toEqual([]);
    const open = { ...earlier, status: 'identified' as const, resolvedAt: null };
    expect(find([exposure([{ name: 'Elastic Load Balancing', region: 'eu-west-2' }])], open)).toMatchObject([
      { active: true, replay: { to: null } },
    ]);
  });
});
