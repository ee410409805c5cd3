import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/loader.js';
import { IncidentIndex } from '../../src/incidents/store.js';
import { replayWindow } from '../../src/replay.js';
import { runCli } from '../helpers/cli.js';

const catalog = loadCatalog();

describe('embedded snapshot', () => {
  const ids = readdirSync('snapshot').map((name) => name.replace(/\.json$/, ''));

  it('holds well-formed incidents of catalog providers, with components the catalog knows', async () => {
    const index = new IncidentIndex('/nonexistent-downstack-index');
    let total = 0;
    for (const id of ids) {
      const provider = catalog.providers.get(id);
      expect(provider, `snapshot/${id}.json names a provider the catalog lacks`).toBeDefined();
      const entry = await index.read(id);
      expect(entry.problems).toEqual([]);
      total += entry.incidents.length;
      for (const incident of entry.incidents) {
        expect(incident.provider).toBe(id);
        const window = replayWindow(incident);
        expect(window.to === null || window.to >= window.from).toBe(true);
      }
    }
    expect(total).toBeGreaterThanOrEqual(30);
  });

  it('answers a post-outage audit offline: the Twingate Controller outage of 2021-08-10', async () => {
    const run = await runCli(
      [
        'check',
        '-',
        '--index',
        '/nonexistent-downstack-index',
        '--since',
        '2021-08-10T19:00Z',
        '--until',
        '2021-08-11',
        '--format',
        'json',
      ],
      {
        input: 'acme.twingate.com\n',
      },
    );
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    const finding = report.findings.find(
      (f: { incident: { id: string } }) => f.incident.id === 'twingate-2021-08-10-controller-downtime',
    );
    expect(finding.replay).toEqual({ from: '2021-08-10T19:39:00Z', to: '2021-08-10T21:24:00Z' });
  });

  it('finds the 2017 S3 outage for a stack that keeps its bucket in us-east-1, not for one in eu-west-2', async () => {
    const args = [
      'check',
      '-',
      '--index',
      '/nonexistent-downstack-index',
      '--since',
      '2017-02-28',
      '--until',
      '2017-03-01',
      '--format',
      'json',
    ];
    const east = JSON.parse((await runCli(args, { input: 'assets.s3.us-east-1.amazonaws.com\n' })).stdout);
    expect(east.findings.map((f: { incident: { id: string } }) => f.incident.id)).toContain(
      'aws-2017-02-28-s3-us-east-1',
    );
    const west = JSON.parse((await runCli(args, { input: 'assets.s3.eu-west-2.amazonaws.com\n' })).stdout);
    expect(west.findings.map((f: { incident: { id: string } }) => f.incident.id)).not.toContain(
      'aws-2017-02-28-s3-us-east-1',
    );
  });
});
