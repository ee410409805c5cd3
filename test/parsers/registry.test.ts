import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PARSERS } from '../../src/parsers/index.js';

describe('parser registry', () => {
  it('registers every parser module on disk and each fulfils the contract', async () => {
    const modules = readdirSync('src/parsers').filter(
      (name) => name.endsWith('.ts') && !['index.ts', 'types.ts'].includes(name) && !name.startsWith('_'),
    );
    const exported = [];
    for (const name of modules) {
      const module = await import(`../../src/parsers/${name}`);
      exported.push(
        ...Object.values(module).filter(
          (value) => typeof value === 'object' && value !== null && 'matches' in value && 'parse' in value,
        ),
      );
    }
    expect(exported.length).toBeGreaterThanOrEqual(modules.length > 0 ? 1 : 0);
    for (const parser of exported) expect(PARSERS).toContain(parser);
    for (const parser of PARSERS) {
      expect(typeof parser.kind).toBe('string');
      expect(parser.matches('/nonexistent/README.md')).toBe(false);
      expect(parser.sniff('')).toBe(false);
    }
  });
});
