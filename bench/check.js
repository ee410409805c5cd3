// End to end: `downstack check` on the example stack as a process, against `node -e ''` (process start-up alone).
import { spawnSync } from 'node:child_process';
import { median, report } from './harness.js';

const time = (args) => () => {
  const result = spawnSync(process.execPath, args, { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
};

export async function run() {
  console.log('\n# check: the whole CLI on examples/saas-app');
  const node = await median(time(['-e', '']), 5);
  const check = await median(
    time([
      'bin/downstack.js',
      'check',
      'examples/saas-app',
      '--since',
      '10y',
      '--index',
      '/nonexistent-downstack-bench',
    ]),
    5,
  );
  report('downstack check examples/saas-app', check, 'bare node start-up', node);
}
