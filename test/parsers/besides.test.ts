import { describe, expect, it } from 'vitest';
import { besides } from '../../src/parsers/types.js';

describe('besides', () => {
  it('joins a relative path to the input directory, ./ and . meaning the directory itself', () => {
    expect(besides('app/yarn.lock', 'packages/api/package.json')).toBe('app/packages/api/package.json');
    expect(besides('app/yarn.lock', './package.json')).toBe('app/package.json');
    expect(besides('app/yarn.lock', '.')).toBe('app');
    expect(besides('yarn.lock', 'package.json')).toBe('package.json');
  });

  it('keeps the leading dot of a dotfile (.env, .terraform.lock.hcl)', () => {
    expect(besides('deploy/docker-compose.yml', '.env')).toBe('deploy/.env');
    expect(besides('docker-compose.yml', '.env')).toBe('.env');
  });
});
