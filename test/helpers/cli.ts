// The one way tests run the CLI: the built binary in a child process, the way a user or a CI step runs it.
// The environment is minimal and private (no colour, no network, a fresh cache and config dir), so nothing from
// the developer's machine leaks in; `catalog` points the run at a test catalog through DOWNSTACK_PROVIDERS_DIR.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'downstack.js');
const HOME = mkdtempSync(join(tmpdir(), 'downstack-test-home-'));

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Standard input; without it stdin is empty (never a terminal, so `-` never waits). */
  input?: string;
  /** A catalog directory (see test/helpers/catalog.ts) in place of the built-in one. */
  catalog?: string;
  /** Lets `check` sync before deciding (loopback status servers); off by default (DOWNSTACK_OFFLINE=1). */
  online?: boolean;
  cwd?: string;
  env?: Record<string, string>;
  /** Polled every few milliseconds; the child is killed with SIGKILL once it returns true. */
  killWhen?: () => boolean;
}

export function runCli(args: string[], options: CliOptions = {}): Promise<CliRun> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME,
    XDG_CACHE_HOME: join(HOME, 'cache'),
    XDG_CONFIG_HOME: join(HOME, 'config'),
    NO_COLOR: '1',
    ...(options.online ? {} : { DOWNSTACK_OFFLINE: '1' }),
    ...(options.catalog ? { DOWNSTACK_PROVIDERS_DIR: options.catalog } : {}),
    ...options.env,
  };
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // A test that sends no input still closes stdin, as a CI step with nothing piped in does.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
    let poll: NodeJS.Timeout | undefined;
    if (options.killWhen) {
      const killWhen = options.killWhen;
      poll = setInterval(() => {
        if (!killWhen()) return;
        clearInterval(poll);
        child.kill('SIGKILL');
      }, 5);
    }
    child.on('error', fail);
    child.on('close', (code, signal) => {
      if (poll) clearInterval(poll);
      done({ code, signal, stdout, stderr });
    });
  });
}

/** A private copy of a fixture index, so a test can never change the fixture. */
export function copyIndex(fixture: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'downstack-index-'));
  cpSync(fixture, dir, { recursive: true });
  return dir;
}
