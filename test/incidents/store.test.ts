// The index reads only the files it wrote: a symbolic link or a FIFO in its place is named and ignored, and no
// message ever repeats what such a file holds.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IncidentIndex } from '../../src/incidents/store.js';

const SECRET = 'db_password=hunter2-do-not-leak\n';

function indexDir(): string {
  return mkdtempSync(join(tmpdir(), 'downstack-store-'));
}

describe('index files that downstack did not write', () => {
  it('a symbolic link is refused with a note, and its target is never read into a message', async () => {
    const dir = indexDir();
    const target = join(mkdtempSync(join(tmpdir(), 'downstack-secret-')), 'credentials');
    writeFileSync(target, SECRET);
    symlinkSync(target, join(dir, 'fx-stripe.json'));
    const entry = await new IncidentIndex(dir, null).read('fx-stripe');
    expect(entry.incidents).toEqual([]);
    expect(entry.problems).toEqual([
      `${join(dir, 'fx-stripe.json')}: is a symbolic link; downstack reads only index files it wrote itself, so it is ignored (remove the link, then sync)`,
    ]);
    await expect(new IncidentIndex(dir, null).readIndexFile('fx-stripe')).rejects.toThrow(/symbolic link/);
  });

  it('a damaged file is named with its line and reason, never with its content', async () => {
    const dir = indexDir();
    writeFileSync(join(dir, 'fx-stripe.json'), `{"schemaVersion": 1,\n${SECRET}}`);
    const { problems } = await new IncidentIndex(dir, null).read('fx-stripe');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/fx-stripe\.json:2: damaged index file \(invalid JSON at column 1: .*\); ignored/);
    expect(problems.join('\n')).not.toContain('hunter2');
  });

  it('a FIFO is not waited on', async () => {
    const dir = indexDir();
    execFileSync('mkfifo', [join(dir, 'fx-stripe.json')]);
    const { problems } = await new IncidentIndex(dir, null).read('fx-stripe');
    expect(problems).toEqual([expect.stringMatching(/fx-stripe\.json: is not a regular file/)]);
  });
});
