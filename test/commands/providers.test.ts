import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

describe('downstack providers', () => {
  it('searches ids, names, npm names and domains', async () => {
    const run = await runCli(['providers', '@sendgrid']);
    expect(run.code).toBe(0);
    expect(
      run.stdout
        .trim()
        .split('\n')
        .map((line) => line.split(/\s+/)[0]),
    ).toEqual(['sendgrid']);
    const json = JSON.parse((await runCli(['providers', 'herokuapp.com', '--format', 'json'])).stdout);
    expect(json.map((p: { id: string }) => p.id)).toEqual(['heroku']);
  });

  it('shows one provider with its status page, matchers, components and upstreams', async () => {
    const run = await runCli(['providers', 'show', 'twingate']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('status page  https://status.twingate.com (statuspage, page d3m2m1y4ghc6)');
    expect(run.stdout).toContain('runs on      google-cloud (Google Kubernetes Engine, Cloud Load Balancing)');
    expect(run.stdout).toMatch(/^ {4}Controller/m);
  });

  it('exits 2 with a hint for an unknown id', async () => {
    const run = await runCli(['providers', 'show', 'no-such-provider']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown provider "no-such-provider"');
  });
});

describe('not-in-catalog candidates', () => {
  it('lists unknown dependencies that look like vendor SDKs instead of dropping them silently', async () => {
    const stack =
      '{"name":"x","dependencies":{"stripe":"1","acme-billing-sdk":"1","@globex/node":"2","@types/node":"20","left-pad":"1"}}';
    const report = JSON.parse(
      (
        await runCli(['check', '-', '--format', 'json', '--no-snapshot', '--index', '/nonexistent-downstack-index'], {
          input: stack,
        })
      ).stdout,
    );
    expect(report.notInCatalog).toEqual(['@globex/node', 'acme-billing-sdk']);
  });
});
