// Mistakes a user can make end in one line on stderr and exit 2, never a stack trace or the exit code of a bug.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeTestCatalog } from '../helpers/catalog.js';
import { runCli } from '../helpers/cli.js';

const catalog = writeTestCatalog(['stripe']);
const STACK = '{"name":"x","dependencies":{"stripe":"1"}}';

/** Exit 2, one line that says what is wrong, and nothing that looks like a trace. */
function expectOneLine(run: { code: number | null; stderr: string }, message: string | RegExp) {
  expect(run.code).toBe(2);
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(message);
  expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
}

describe('plain failures', () => {
  it('--index naming a file', async () => {
    const file = join(tempDir(), 'index.json');
    writeFileSync(file, '{}');
    for (const command of [['check', '-'], ['sync', '--all'], ['incidents'], ['import', '-']]) {
      const run = await runCli([...command, '--index', file], { catalog, input: STACK });
      expectOneLine(run, `downstack: the incident index ${file} is a file, not a directory`);
    }
  });

  it.skipIf(process.getuid?.() === 0)('a read-only index directory', async () => {
    const index = tempDir();
    chmodSync(index, 0o555);
    const run = await runCli(['import', '-', '--index', index], {
      catalog: writeTestCatalog(['twingate']),
      input: readFileSync('test/fixtures/import/text/guide-page-utc-postmortem.txt', 'utf8'),
    });
    chmodSync(index, 0o755);
    expectOneLine(run, `downstack: cannot write to the index directory ${index}: permission denied`);
  });

  it('a read-only index directory, as root too: a read-only file system', async () => {
    // Root ignores permission bits; /proc/self is a directory nobody can create files in.
    const run = await runCli(['sync', '--all', '--index', '/proc/self'], {
      catalog: writeTestCatalog([], { extra: [{ id: 'gh', platform: 'statuspage', url: 'http://127.0.0.1:9/gh' }] }),
    });
    expectOneLine(run, /^downstack: cannot write to the index directory \/proc\/self: /);
  });

  it('--output into a directory that does not exist', async () => {
    const missing = join(tempDir(), 'no-such-dir', 'report.json');
    const run = await runCli(['check', '-', '--output', missing, '--index', tempDir()], { catalog, input: STACK });
    expectOneLine(run, `downstack: --output ${missing}: cannot write the report: its directory does not exist`);
  });

  it('a YAML alias bomb in .downstack.yml', async () => {
    const repo = tempDir('downstack-bomb-');
    let yaml = 'a: &a ["x","x","x","x","x","x","x","x","x"]\n';
    for (let i = 0, previous = 'a'; i < 9; i++, previous = `l${i - 1}`)
      yaml += `l${i}: &l${i} [${Array(9).fill(`*${previous}`).join(',')}]\n`;
    writeFileSync(join(repo, '.downstack.yml'), yaml);
    const run = await runCli(['check', repo], { catalog });
    expectOneLine(run, /\.downstack\.yml: Excessive alias count .*; a config file needs no such aliases$/);
  });

  it('a huge --since and an impossible date', async () => {
    expectOneLine(
      await runCli(['check', '-', '--since', '99999999999999999999d'], { catalog, input: STACK }),
      'downstack: --since "99999999999999999999d" reaches back before 1970; give a date instead',
    );
    expectOneLine(
      await runCli(['check', '-', '--since', '2021-02-30'], { catalog, input: STACK }),
      'downstack: --since "2021-02-30" is not a real date or time',
    );
    expectOneLine(
      await runCli(['incidents', '--until', '2021-04-31T10:00Z'], { catalog }),
      'downstack: --until "2021-04-31T10:00Z" is not a real date or time',
    );
  });

  it('an explicit named pipe: refused at once, not read (which would wait for a writer forever)', async () => {
    const dir = tempDir();
    execFileSync('mkfifo', [join(dir, 'package.json')]);
    const run = await runCli(['check', join(dir, 'package.json'), '--index', dir], { catalog });
    // An input that cannot be read is reported as every input problem is, then the run says nothing was read.
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `${join(dir, 'package.json')}: is a named pipe, not a file; pipe it to standard input instead ("-")\n` +
        'downstack: nothing could be read (see the errors above)\n',
    );
    // The walk of a directory holding one passes it by as well.
    mkdirSync(join(dir, 'app'));
    writeFileSync(join(dir, 'app', 'package.json'), STACK);
    expect((await runCli(['check', dir, '--index', dir], { catalog })).code).toBe(0);
  });

  it('standard input larger than the limit for any input', async () => {
    const huge = `${' '.repeat(128 * 1024 * 1024)}{}`;
    const run = await runCli(['check', '-', '--index', tempDir()], { catalog, input: huge });
    expectOneLine(run, 'downstack: standard input is larger than 128 MB, the limit for one input; nothing was read');
  });
});

describe('commands, as commander builds them', () => {
  it('a mistyped command is refused with a suggestion, though a run builds only the command it names', async () => {
    const run = await runCli(['chek', 'package.json']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown command 'chek'[\s\S]*Did you mean check\?/);
  });

  it('--help lists every command, and a command’s own help only its options', async () => {
    const help = await runCli(['--help']);
    for (const name of ['check', 'incidents', 'explain', 'jobs', 'sync', 'import', 'providers'])
      expect(help.stdout).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
    const check = await runCli(['check', '--help']);
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(/^Usage: downstack check \[options\] \[paths\.\.\.\]/);
    expect(check.stdout).toContain('--fail-on');
    expect(check.stdout).not.toMatch(/^ {2}incidents\b/m);
  });
});
