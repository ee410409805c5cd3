// The option table is the one declaration of every option: these tests hold the CLI, the help text and the
// `.downstack.yml` schema to it, so a setting added there needs nothing anywhere else.
import { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/config/schema.js';
import { addOptions, type CommandName, configurableOptions, OPTIONS, optionsOf } from '../../src/settings/options.js';

const COMMANDS: CommandName[] = [
  'check',
  'feed',
  'sync',
  'incidents',
  'providers',
  'providers show',
  'explain',
  'import',
];

describe('the option table', () => {
  it('names every option that the environment or the config file can set after its own commander attribute', () => {
    for (const [key, spec] of Object.entries(OPTIONS))
      if ('config' in spec || 'env' in spec) expect(new Option(spec.flags).attributeName()).toBe(key);
  });

  it('gives .downstack.yml exactly the keys of the options that declare a config schema, plus ignore and providers', () => {
    const keys = Object.keys(ConfigSchema.shape).sort();
    expect(keys).toEqual([...configurableOptions().map(([key]) => key), 'ignore', 'providers'].sort());
    expect(keys).toEqual(['failOn', 'format', 'ignore', 'index', 'limit', 'omit', 'providers', 'reach', 'since']);
  });

  it('adds to each command exactly the options declared for it, with their help text, choices and defaults', () => {
    for (const name of COMMANDS) {
      const command = addOptions(new Command(name), name);
      const declared = optionsOf(name).map(([, spec]) => spec.flags);
      expect(command.options.map((option) => option.flags)).toEqual(declared);
      const help = command.helpInformation();
      for (const flags of declared) expect(help).toContain(flags.split(' ')[0]);
    }
    const check = addOptions(new Command('check'), 'check').helpInformation().replace(/\s+/g, ' ');
    expect(check).toMatch(/--fail-on <when> exit 1 when .* \(choices: "none", "active", "any", default: "none"\)/);
    expect(check).toContain('.downstack.yml failOn:');
    expect(check).toContain('$DOWNSTACK_INDEX');
  });

  it('lets a repository config set no option that grants permissions', () => {
    expect(configurableOptions().map(([key]) => key)).not.toContain('allowPrivateEndpoints');
    expect(configurableOptions().map(([key]) => key)).not.toContain('config');
  });
});
