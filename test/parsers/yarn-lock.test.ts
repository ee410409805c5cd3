// yarn.lock v1 names no roots: the package.json files (read through the core) say where chains start.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { FileAccess } from '../../src/parsers/types.js';
import { parseYarnLock, yarnLockParser } from '../../src/parsers/yarn-lock.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/lockfiles/', import.meta.url));
const lockText = readFileSync(`${FIXTURES}yarn-v1-workspaces/yarn.lock`, 'utf8');

/** Files of a project given as a map (paths as the scan names them); every read goes through it, as the core's would. */
function project(files: Record<string, string>): FileAccess {
  const missing = { failed: 'missing', reason: 'no such file or directory' } as const;
  return {
    read: async (path) => (files[path] === undefined ? missing : { text: files[path] }),
    list: async (dir) => {
      const prefix = dir === '.' ? '' : `${dir}/`;
      const below = Object.keys(files).filter((file) => file.startsWith(prefix));
      if (below.length === 0) return missing;
      const entries = below.map((file) => file.slice(prefix.length).split('/'));
      return {
        files: entries.filter((parts) => parts.length === 1).map((parts) => parts[0] as string),
        dirs: [...new Set(entries.filter((parts) => parts.length > 1).map((parts) => parts[0] as string))],
      };
    },
  };
}

describe('yarn.lock v1', () => {
  it('without any package.json: the entries nothing depends on become direct, with a warning', () => {
    const { dependencies, errors } = parseYarnLock(lockText, 'repo/yarn.lock');
    expect(errors).toEqual([
      { file: 'repo/yarn.lock', message: expect.stringMatching(/no package.json next to this yarn.lock/) },
    ]);
    const direct = dependencies.filter((d) => d.direct).map((d) => d.name);
    expect(direct).toEqual(expect.arrayContaining(['@sentry/node', '@sentry/vite-plugin', 'stripe', 'openai']));
    expect(dependencies.find((d) => d.name === 'stripe')?.via).toEqual(['repo', 'stripe']);
  });

  it('expands workspace globs through the core and starts a chain at each workspace', async () => {
    const files = {
      'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['services/*'] }),
      'services/billing/package.json': JSON.stringify({
        name: 'billing',
        dependencies: { stripe: '^17.5.0', '@acme/logger': '0.3.0' },
      }),
      'services/logging/package.json': JSON.stringify({
        name: '@acme/logger',
        dependencies: { '@sentry/node': '^8.40.0' },
      }),
    };
    const result = await yarnLockParser.parse(lockText, 'yarn.lock', project(files));
    expect(result?.errors).toEqual([]);
    expect(result?.projectDirs).toEqual(['.', 'services/billing', 'services/logging']);
    const chains = result?.dependencies
      .filter((d) => d.name === '@sentry/node')
      .map((d) => d.via.join(' > '))
      .sort();
    expect(chains).toEqual(['@acme/logger > @sentry/node', 'billing > @acme/logger > @sentry/node']);
  });

  it('says which workspace patterns it cannot expand', async () => {
    const files = { 'package.json': JSON.stringify({ name: 'mono', workspaces: ['packages/**'] }) };
    const result = await yarnLockParser.parse(lockText, 'yarn.lock', project(files));
    expect(result?.errors).toEqual([
      { file: 'yarn.lock', message: expect.stringMatching(/workspace pattern "packages\/\*\*" is not expanded/) },
    ]);
  });

  it('reports an unreadable line and reads the rest', () => {
    const broken = lockText.replace('"@sentry/node@^8.40.0":', '"@sentry/node@^8.40.0');
    const { dependencies, errors } = parseYarnLock(broken, 'yarn.lock');
    const line = lockText.split('\n').findIndex((l) => l.startsWith('"@sentry/node@^8.40.0":')) + 1;
    expect(errors).toContainEqual({
      file: 'yarn.lock',
      line,
      message: expect.stringMatching(/expected an entry like "name@range:"/),
    });
    expect(dependencies.some((d) => d.name === 'stripe')).toBe(true);
  });
});
