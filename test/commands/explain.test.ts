// `downstack explain`: the chains behind a provider or a package, root first, per file and workspace.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { forOutput } from '../../src/sanitize.js';
import { explainTarget, renderExplanations } from '../../src/commands/explain.js';
import { scanPaths } from '../../src/scan.js';
import { testCatalog } from '../helpers/catalog.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/lockfiles/', import.meta.url));
const catalog = testCatalog(['aws', 'openai', 'sentry', 'slack', 'stripe']);

async function dependenciesOf(dir: string) {
  const { inputs } = await scanPaths([`${FIXTURES}${dir}`]);
  return inputs.flatMap((input) => input.dependencies);
}

describe('explainTarget', () => {
  it('a provider id: every package the catalog maps to it, shortest chains first per workspace', async () => {
    const [sentry] = explainTarget('sentry', await dependenciesOf('npm-v3-workspaces'), catalog);
    expect(sentry?.provider).toBe('sentry');
    const api = sentry?.chains.filter((d) => d.workspace === '@acme/api').map((d) => d.via.join(' > '));
    expect(api?.[0]).toBe('@acme/api > @acme/logger > @sentry/node');
    expect(api?.every((chain) => chain.startsWith('@acme/api > @acme/logger > @sentry/node'))).toBe(true);
    const root = sentry?.chains.filter((d) => d.workspace === 'acme-platform');
    expect(root?.[0]).toMatchObject({ name: '@sentry/vite-plugin', kind: 'dev', direct: true });
  });

  it('a provider name, case-insensitively, and a bare package name', async () => {
    const dependencies = await dependenciesOf('yarn-v1-workspaces');
    expect(explainTarget('Stripe', dependencies, catalog)[0]?.chains.map((d) => d.via)).toEqual([
      ['@acme/api', 'stripe'],
    ]);
    const byPackage = explainTarget('@slack/web-api', dependencies, catalog);
    expect(byPackage).toHaveLength(1);
    expect(byPackage[0]?.provider).toBeUndefined();
    expect(byPackage[0]?.chains.map((d) => d.via)).toEqual([['@acme/api', '@slack/web-api']]);
  });

  it('nothing for what the stack does not hold', async () => {
    expect(explainTarget('left-pad', await dependenciesOf('bun-workspaces'), catalog)).toEqual([]);
  });
});

describe('renderExplanations', () => {
  it('prints the file, the workspace, each chain with its version, kind and line', async () => {
    const text = forOutput(
      renderExplanations('sentry', explainTarget('sentry', await dependenciesOf('pnpm-v9-workspaces'), catalog)),
    );
    const lines = text.split('\n');
    expect(lines[0]).toBe('Sentry (sentry): 17 chains');
    expect(lines[1]).toMatch(/pnpm-v9-workspaces\/pnpm-lock\.yaml \[workspace @acme\/api\]$/);
    expect(lines[2]).toMatch(/^ {4}@acme\/api → @acme\/logger → @sentry\/node@8\.55\.2 {2}\[direct\] {2}\(line \d+\)$/);
    expect(text).toMatch(/acme-platform → @sentry\/vite-plugin@2\.23\.1 {2}\[dev\]/);
  });

  it('strips terminal escapes a hostile lockfile could carry in names', () => {
    const rendered = renderExplanations('evil', [
      {
        chains: [
          {
            ecosystem: 'npm',
            name: 'evil',
            file: 'x',
            direct: true,
            via: ['app\u001b[2J', 'evil\u202e'],
            kind: 'prod',
          },
        ],
      },
    ]);
    const text = forOutput(rendered);
    expect(text).not.toMatch(/\u001b|\u202e/);
    expect(text).toContain('app → evil');
  });
});
