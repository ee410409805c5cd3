// Settings resolve one way for every command: command line, then environment, then .downstack.yml, then default.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommandName } from '../../src/settings/options.js';
import { defaultIndexDir, type ParsedFlags, resolveSettings } from '../../src/settings/resolve.js';
import { tempDir, writeTestCatalog } from '../helpers/catalog.js';

function repository(config: string): string {
  const dir = tempDir('downstack-settings-');
  mkdirSync(join(dir, '.git'));
  writeFileSync(join(dir, '.downstack.yml'), config);
  return dir;
}

const flags = (command: CommandName, values: Record<string, unknown>, given: string[] = []): ParsedFlags => ({
  command,
  values,
  given: new Set(given),
});

describe('resolveSettings', () => {
  it('takes the command line over the environment over the config file over the default', async () => {
    const repo = repository('index: team-index\nsince: 7d\n');
    const fromConfig = await resolveSettings([repo], flags('check', { since: '90d' }), {});
    expect(fromConfig.indexDir).toBe(join(repo, 'team-index'));
    expect(fromConfig.flags).toMatchObject({ since: '7d' });

    const fromEnv = await resolveSettings([repo], flags('check', { since: '90d' }), { DOWNSTACK_INDEX: '/srv/index' });
    expect(fromEnv.indexDir).toBe('/srv/index');

    const fromFlag = await resolveSettings(
      [repo],
      flags('check', { since: '30d', index: '/tmp/mine' }, ['since', 'index']),
      { DOWNSTACK_INDEX: '/srv/index' },
    );
    expect(fromFlag.indexDir).toBe('/tmp/mine');
    expect(fromFlag.flags).toMatchObject({ since: '30d' });

    const none = await resolveSettings([tempDir()], flags('check', { since: '90d' }), {});
    expect(none.indexDir).toBe(defaultIndexDir());
    expect(none.config).toBeUndefined();
  });

  it('applies a config key only to the commands that take it from the file', async () => {
    const repo = repository('since: 7d\nformat: markdown\n');
    const incidents = await resolveSettings([repo], flags('incidents', { format: 'table' }), {});
    expect(incidents.flags).toEqual({ format: 'table' });
    const check = await resolveSettings([repo], flags('check', { format: 'table' }), {});
    expect(check.flags).toMatchObject({ format: 'markdown', since: '7d' });
  });

  it('builds the catalog from the built-in one (or DOWNSTACK_PROVIDERS_DIR) and the config providers, and knows which are the repository’s', async () => {
    const repo = repository('providers:\n  - ops/acme.yaml\n');
    mkdirSync(join(repo, 'ops'));
    writeFileSync(
      join(repo, 'ops', 'acme.yaml'),
      'name: Acme\ncategory: other\nstatus:\n  url: https://status.acme.example\n  platform: statuspage\nmatch:\n  npm: [acme-sdk]\n',
    );
    const builtIn = writeTestCatalog(['stripe']);
    const settings = await resolveSettings([repo], flags('sync', {}), { DOWNSTACK_PROVIDERS_DIR: builtIn });
    expect(settings.catalogDirs).toEqual([builtIn, resolve(repo, 'ops/acme.yaml')]);
    expect([...settings.catalog().providers.keys()].sort()).toEqual(['acme', 'stripe']);
    expect([...settings.repositoryProviders()]).toEqual(['acme']);
  });

  it('reads the file --config names, even where the scanned paths have another', async () => {
    const repo = repository('since: 7d\n');
    const other = join(repository('since: 1d\n'), '.downstack.yml');
    const settings = await resolveSettings([repo], flags('check', { config: other, since: '90d' }, ['config']), {});
    expect(settings.config?.file).toBe(other);
    expect(settings.flags).toMatchObject({ since: '1d' });
  });
});
