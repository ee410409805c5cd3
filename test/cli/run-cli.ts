// Runs the built binary the way a CI step would, against the fixture catalog (never the real one).
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

export const FIXTURES = 'test/fixtures/report';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const { DOWNSTACK_INDEX: _ignored, ...inherited } = process.env;
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [resolve('bin/downstack.js'), ...args], {
      env: {
        ...inherited,
        NO_COLOR: '1',
        DOWNSTACK_OFFLINE: '1',
        DOWNSTACK_PROVIDERS_DIR: resolve(FIXTURES, 'catalog'),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}
