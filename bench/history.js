// The bundled history: loading a stack's worth of it (GitHub, Google Cloud, AWS and Azure, the four biggest files)
// against JSON.parse of the same bytes measured in the same run, and `check` on a stack of those four providers
// against bare node start-up. Budget: the four load in 50 ms or less on a developer machine.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readHistory } from '../dist/incidents/history.js';
import { IncidentIndex } from '../dist/incidents/store.js';
import { HISTORY_DIR } from '../dist/paths.js';
import { childEnv, median, report } from './harness.js';

const FOUR = ['github', 'google-cloud', 'aws', 'azure'];

export async function run() {
  console.log('\n# history: the bundled history of a four-provider stack');
  // Every year of each provider: what `incidents` reads, and what a check over 20 years reads.
  const texts = FOUR.flatMap((id) =>
    readdirSync(join(HISTORY_DIR, id)).map((name) => readFileSync(join(HISTORY_DIR, id, name), 'utf8')),
  );
  const bytes = texts.reduce((sum, text) => sum + text.length, 0);
  const parse = await median(() => {
    for (const text of texts) JSON.parse(text);
  }, 9);
  const load = await median(async () => {
    for (const id of FOUR) await readHistory(HISTORY_DIR, id);
  }, 9);
  report(
    `read the history of ${FOUR.length} providers (${texts.length} files, ${(bytes / 1024 / 1024).toFixed(1)} MB)`,
    load,
    'JSON.parse of the same bytes',
    parse,
    load <= 50 ? '(within 50 ms)' : '(OVER the 50 ms budget)',
  );
  const index = new IncidentIndex(mkdtempSync(join(tmpdir(), 'downstack-bench-index-')));
  const layered = await median(async () => {
    await Promise.all(FOUR.map((id) => index.read(id)));
  }, 9);
  report('index.read: history + snapshot + index, layered', layered, 'JSON.parse of the same bytes', parse);

  const stack = mkdtempSync(join(tmpdir(), 'downstack-bench-stack-'));
  writeFileSync(
    join(stack, 'domains.txt'),
    'api.github.com\nstorage.googleapis.com\nassets.s3.us-east-1.amazonaws.com\nacme.azurewebsites.net\n',
  );
  const spawn = (args) => () => {
    const result = spawnSync(process.execPath, args, { encoding: 'utf8', env: childEnv({ NO_COLOR: '1' }) });
    if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  };
  const node = await median(spawn(['-e', '']), 5);
  const args = ['bin/downstack.js', 'check', stack, '--since', '20y', '--no-resolve', '--index', join(stack, 'index')];
  const check = await median(spawn(args), 5);
  const snapshotOnly = await median(spawn([...args, '--no-snapshot']), 5);
  // The default window reads the history's last year or two only.
  const recent = await median(spawn(args.filter((arg, i) => arg !== '--since' && args[i - 1] !== '--since')), 5);
  report('check: GitHub, Google Cloud, AWS, Azure over 20 years', check, 'bare node start-up', node);
  report('check: the same stack over the default 90 days', recent, 'bare node start-up', node);
  report('check: the same stack without snapshot and history', snapshotOnly, 'bare node start-up', node);
}
