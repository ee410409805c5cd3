// The core's one handle for parsers: one rule for what may be read, one shape for a read that failed.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileAccess, readTextFile } from '../src/file-access.js';
import { tempDir } from './helpers/catalog.js';

function tree(): string {
  const dir = tempDir('downstack-files-');
  mkdirSync(join(dir, 'app', 'node_modules', 'stripe'), { recursive: true });
  mkdirSync(join(dir, 'app', 'packages', 'api'), { recursive: true });
  mkdirSync(join(dir, 'modules', 'network'), { recursive: true });
  writeFileSync(join(dir, 'app', 'package.json'), '{"name":"app"}');
  writeFileSync(join(dir, 'app', 'node_modules', 'stripe', 'package.json'), '{"name":"stripe"}');
  writeFileSync(join(dir, 'modules', 'network', 'main.tf'), 'resource "aws_vpc" "main" {}\n');
  return dir;
}

describe('the file handle parsers read through', () => {
  it('reads inside the scanned directory, and lists the subdirectories the walk would enter', async () => {
    const dir = tree();
    const files = createFileAccess([join(dir, 'app')]);
    expect(await files.read(join(dir, 'app', 'package.json'))).toEqual({ text: '{"name":"app"}' });
    expect(await files.list(join(dir, 'app'))).toEqual({ files: ['package.json'], dirs: ['packages'] });
    expect(await files.read(join(dir, 'app', 'missing.json'))).toEqual({
      failed: 'missing',
      reason: 'no such file or directory',
    });
  });

  it('refuses what lies outside the scan or inside a skipped directory, unless the parser names why', async () => {
    const dir = tree();
    const files = createFileAccess([join(dir, 'app')]);
    const outside = { failed: 'outside', reason: 'outside the scanned directories; not read' };
    expect(await files.read(join(dir, 'app', 'node_modules', 'stripe', 'package.json'))).toEqual(outside);
    expect(await files.read(join(dir, 'app', '..', 'modules', 'network', 'main.tf'))).toEqual(outside);
    expect(await files.list(join(dir, 'modules', 'network'))).toEqual(outside);
    expect(await files.list(join(dir, 'modules', 'network'), 'terraform-local-module')).toEqual({
      files: ['main.tf'],
      dirs: [],
    });
  });

  it('judges a symbolic link by where it leads: out of the scan is outside', async () => {
    const dir = tree();
    symlinkSync(join(dir, 'modules'), join(dir, 'app', 'linked'));
    symlinkSync(join(dir, 'app', 'packages'), join(dir, 'app', 'also-packages'));
    const files = createFileAccess([join(dir, 'app')]);
    expect(await files.read(join(dir, 'app', 'linked', 'network', 'main.tf'))).toEqual({
      failed: 'outside',
      reason: 'outside the scanned directories; not read',
    });
    expect(await files.list(join(dir, 'app', 'also-packages'))).toEqual({ files: [], dirs: ['api'] });
  });

  it('refuses a named pipe, a directory and a binary file without blocking, each with its reason', async () => {
    const dir = tree();
    const fifo = join(dir, 'app', 'package-lock.json');
    execFileSync('mkfifo', [fifo]);
    writeFileSync(join(dir, 'app', 'domains.txt'), Buffer.from([0x61, 0x00, 0x62]));
    expect(await readTextFile(fifo)).toEqual({
      failed: 'unreadable',
      reason: 'is a named pipe, not a file; pipe it to standard input instead ("-")',
    });
    expect(await readTextFile(join(dir, 'app'))).toEqual({ failed: 'unreadable', reason: 'is a directory' });
    expect(await readTextFile(join(dir, 'app', 'domains.txt'))).toEqual({
      failed: 'unreadable',
      reason: 'binary file, not a text input; skipped',
    });
    expect(await readTextFile(join(dir, 'app', 'package.json'), { maxBytes: 4 })).toEqual({
      failed: 'unreadable',
      reason: 'file is too large to scan (0 KB; the limit is 0 KB)',
    });
  });
});
