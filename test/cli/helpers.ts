import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI the way a user does (`node bin/downstack.js …`), with no colour and a private cache. */
export function runCli(args: string[], options: { input?: string; env?: Record<string, string> } = {}): RunResult {
  const result = spawnSync(process.execPath, ['bin/downstack.js', ...args], {
    input: options.input ?? '',
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '',
      NO_COLOR: '1',
      DOWNSTACK_OFFLINE: '1',
      XDG_CACHE_HOME: join(tmpdir(), 'downstack-test-cache'),
      ...options.env,
    },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A private copy of a fixture index, so a test can never change the fixture. */
export function copyIndex(fixture: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'downstack-index-'));
  cpSync(fixture, dir, { recursive: true });
  return dir;
}
