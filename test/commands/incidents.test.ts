import { describe, expect, it } from 'vitest';
import { copyIndex, runCli } from '../helpers/cli.js';

describe('downstack incidents', () => {
  it('lists one provider’s incidents in a window as Incident JSON, index over snapshot over bundled history', async () => {
    const index = copyIndex('test/fixtures/index');
    const run = await runCli([
      'incidents',
      '--provider',
      'aws',
      '--since',
      '2021-08-01',
      '--until',
      '2021-08-31',
      '--format',
      'json',
      '--index',
      index,
    ]);
    expect(run.code).toBe(0);
    const incidents = JSON.parse(run.stdout);
    const own = incidents.filter((i: { source: string }) => i.source !== 'history');
    expect(own.map((i: { id: string }) => i.id)).toEqual(['aws-s3-use1', 'aws-elb-euw2']);
    // AWS's dashboard posted these in August 2021 too; the bundled history brings them.
    expect(incidents.map((i: { id: string }) => i.id)).toEqual(
      expect.arrayContaining(['ec2-us-east-1_1628699197', 'dynamodb-us-east-1_1628298493']),
    );
    expect(own[0]).toMatchObject({
      provider: 'aws',
      regions: ['us-east-1'],
      startedAt: '2021-08-10T21:00:00Z',
      resolvedAt: '2021-08-10T22:30:00Z',
    });
  });

  it('includes the embedded snapshot unless told not to', async () => {
    const args = [
      'incidents',
      '--provider',
      'aws',
      '--since',
      '2017-02-01',
      '--until',
      '2017-03-31',
      '--format',
      'json',
      '--index',
      '/nonexistent-downstack-index',
    ];
    expect(JSON.parse((await runCli(args)).stdout).map((i: { id: string }) => i.id)).toEqual([
      'aws-2017-02-28-s3-us-east-1',
    ]);
    expect(JSON.parse((await runCli([...args, '--no-snapshot'])).stdout)).toEqual([]);
  });

  it('names a damaged index file, ignores it, and keeps answering from the snapshot', async () => {
    const index = copyIndex('test/fixtures/index');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${index}/aws.json`, '{"schemaVersion": 1, "provider": "aws", "incidents": [');
    const run = await runCli([
      'incidents',
      '--provider',
      'aws',
      '--since',
      '2017-02-01',
      '--until',
      '2017-03-31',
      '--format',
      'json',
      '--index',
      index,
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`${index}/aws.json:1: damaged index file (JSON ends early (truncated file?))`);
    expect(JSON.parse(run.stdout).map((i: { id: string }) => i.id)).toEqual(['aws-2017-02-28-s3-us-east-1']);
  });

  it('rejects an unknown provider id', async () => {
    const run = await runCli(['incidents', '--provider', 'nope']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown provider "nope"');
  });
});
