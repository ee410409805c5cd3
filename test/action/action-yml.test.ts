// The composite action's script, run with a stand-in `npx` that prints its arguments: inputs become
// arguments exactly, and an input can never run shell code.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';

interface Action {
  runs: { using: string; steps: Array<{ uses?: string; run?: string; shell?: string; env?: Record<string, string> }> };
  inputs: Record<string, { default: string }>;
}

const action = parse(readFileSync('action.yml', 'utf8')) as Action;
const step = action.runs.steps.find((candidate) => candidate.run);
const bin = mkdtempSync(join(tmpdir(), 'downstack-action-'));
writeFileSync(join(bin, 'npx'), '#!/bin/sh\nfor arg in "$@"; do printf "%s\\n" "$arg"; done\n');
chmodSync(join(bin, 'npx'), 0o755);
afterAll(() => rmSync(bin, { recursive: true, force: true }));

/** Runs the step the way the runner does (`bash --noprofile --norc -eo pipefail`), with the inputs' defaults overridden by `inputs`, as the runner would set them. */
function runStep(inputs: Record<string, string>): string[] {
  const env: Record<string, string> = {};
  for (const [name, expression] of Object.entries(step?.env ?? {})) {
    const input = /\$\{\{ inputs\.([\w-]+) \}\}/.exec(expression)?.[1] ?? '';
    env[name] = inputs[input] ?? action.inputs[input]?.default ?? '';
  }
  const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step?.run ?? ''], {
    env: { PATH: `${bin}:${process.env.PATH}`, ...env },
    encoding: 'utf8',
  });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout.trimEnd().split('\n');
}

describe('action.yml', () => {
  it('is a composite action that sets up Node and then runs downstack from npm', () => {
    expect(action.runs.using).toBe('composite');
    expect(action.runs.steps[0]?.uses).toMatch(/^actions\/setup-node@v\d+$/);
    expect(step?.shell).toBe('bash');
  });

  it('by default gates on open incidents with annotations, after a sync', () => {
    expect(runStep({})).toEqual([
      '--yes',
      'downstack@latest',
      'check',
      '.',
      '--fail-on',
      'active',
      '--format',
      'github',
      '--sync',
    ]);
  });

  it('passes each input as one argument and never evaluates it', () => {
    const args = runStep({
      paths: 'services/api infra',
      since: '$(touch /tmp/pwned) 7d',
      'fail-on': '',
      sync: 'false',
      version: '0.1.0',
      output: 'out dir/report.sarif',
      format: 'sarif',
    });
    expect(args).toEqual([
      '--yes',
      'downstack@0.1.0',
      'check',
      'services/api',
      'infra',
      '--format',
      'sarif',
      '--since',
      '$(touch /tmp/pwned) 7d',
      '--output',
      'out dir/report.sarif',
    ]);
  });
});
