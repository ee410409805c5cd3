import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCargoLock } from '../../src/parsers/cargo-lock.js';
import { byName, polyglot } from '../helpers/ecosystem-fixtures.js';

describe('Cargo.lock', () => {
  const { text, path } = polyglot('rust/Cargo.lock');

  it('starts at the workspace crate (no source) and resolves "name version" references', () => {
    const { dependencies, errors } = parseCargoLock(text, path);
    expect(errors).toEqual([]);
    expect(byName(dependencies, 'aws-sdk-s3')).toMatchObject({
      ecosystem: 'cargo',
      version: '1.25.0',
      direct: true,
      via: ['acme-ingest', 'aws-sdk-s3'],
      line: 26,
    });
    const http = dependencies.filter((d) => d.name === 'http').map((d) => d.version);
    expect(http.sort()).toEqual(['0.2.12', '1.1.0']);
    expect(byName(dependencies, 'aws-types').via).toEqual(['acme-ingest', 'aws-config', 'aws-types']);
  });

  it('says so when no crate of the workspace is in the file', () => {
    const { errors } = parseCargoLock(
      'version = 3\n\n[[package]]\nname = "x"\nversion = "1.0.0"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\n',
      'Cargo.lock',
    );
    expect(errors[0]?.message).toMatch(/no package of the workspace/);
  });
});

describe('a Cargo.lock written by cargo generate-lockfile (version 4, a workspace of two path crates)', () => {
  it('takes both crates as the workspace: chains start there and neither is reported as a dependency', () => {
    const { dependencies, errors } = parseCargoLock(
      readFileSync('test/fixtures/ecosystems/cargo-real/Cargo.lock', 'utf8'),
      'Cargo.lock',
    );
    expect(errors).toEqual([]);
    expect(dependencies).toEqual([]);
  });
});
