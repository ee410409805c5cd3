// Which folders a workspace declaration covers: the globs of pnpm-workspace.yaml and package.json `workspaces`.
import { describe, expect, it } from 'vitest';
import { covers } from '../src/workspace-root.js';

describe('covers', () => {
  it('a folder a glob matches is a workspace', () => {
    expect(covers(['apps/*', 'packages/*'], 'apps/web')).toBe(true);
    expect(covers(['./apps/*/'], 'apps/web')).toBe(true);
    expect(covers(['web', 'worker'], 'worker')).toBe(true);
    expect(covers(['packages/**'], 'packages/ui/button')).toBe(true);
  });

  it('a folder above a glob holds workspaces', () => {
    expect(covers(['apps/*'], 'apps')).toBe(true);
    expect(covers(['packages/embeds/*'], 'packages')).toBe(true);
  });

  it('a folder inside a workspace, or beside the globs, is not covered', () => {
    expect(covers(['apps/*'], 'apps/web/src')).toBe(false);
    expect(covers(['apps/*'], 'tools')).toBe(false);
    expect(covers([], 'apps/web')).toBe(false);
  });

  it('a negated glob takes a folder out', () => {
    expect(covers(['packages/*', '!packages/legacy'], 'packages/legacy')).toBe(false);
    expect(covers(['packages/*', '!packages/legacy'], 'packages/api')).toBe(true);
    expect(covers(['packages/**', '!**/test/**'], 'packages/ui/test/fixtures')).toBe(false);
  });
});
