import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { annotationPath, command, escapeData, escapeProperty, renderGithub } from '../../src/report/github.js';
import { forOutput } from '../../src/sanitize.js';
import { NOW, configuredReport, fixtureReport } from '../helpers/report-fixture.js';

/** The runner's unescaping (actions/runner ActionCommand), applied in reverse order of the escaping. */
const unescapeCommand = (text: string) =>
  text.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');

describe('GitHub workflow commands', () => {
  it('escapes % and line breaks in the message, and also , and : in properties', () => {
    expect(escapeData('100% down\r\nsee: a, b')).toBe('100%25 down%0Asee: a, b');
    expect(escapeProperty('Stripe: API, Dashboard 5%')).toBe('Stripe%3A API%2C Dashboard 5%25');
    expect(unescapeCommand(escapeProperty('a:b,c%d'))).toBe('a:b,c%d');
  });

  it('annotates at repository-relative paths', () => {
    expect(annotationPath(resolve('infra', 'main.tf'))).toBe('infra/main.tf');
    expect(annotationPath('services/api/package.json')).toBe('services/api/package.json');
    expect(annotationPath('/elsewhere/package.json')).toBe('/elsewhere/package.json');
  });

  it('cannot be tricked into a second command by remote text', () => {
    const line = forOutput(
      command('warning', { file: 'package.json', line: 3, title: 'x,line=1::y' }, 'title\n::error::injected\r\n%0A'),
    );
    expect(line.split('\n')).toHaveLength(1);
    // The message's own lines are defused too, in case a log viewer shows the unescaped message.
    expect(line).toBe('::warning file=package.json,line=3,title=x%2Cline=1%3A%3Ay::title%0A: :error::injected%0A%250A');
    expect(line.match(/::/g)).toHaveLength(3);
  });

  it('annotates open incidents as errors and resolved ones as warnings at the dependency line', async () => {
    const lines = forOutput(renderGithub(await fixtureReport(), { now: NOW }))
      .trimEnd()
      .split('\n');
    expect(lines.filter((line) => line.startsWith('::error '))).toEqual([
      expect.stringMatching(
        /^::error file=test\/fixtures\/report\/stack\/package\.json,line=8,title=GitHub%3A open incident on Actions%2C Webhooks::/,
      ),
    ]);
    expect(lines.filter((line) => line.startsWith('::warning '))).toHaveLength(2);
    expect(lines.at(-1)).toMatch(/^downstack: 3 incidents touched this stack \(1 open\)/);
  });

  it('turns ignored findings into notices and expired ignores into warnings on the config line', async () => {
    const { report, notes } = await configuredReport();
    const lines = forOutput(renderGithub(report, { now: NOW, notes })).split('\n');
    expect(lines.filter((line) => line.startsWith('::notice '))).toHaveLength(1);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^::warning file=test\/fixtures\/report\/configured-stack\/\.downstack\.yml,line=13,title=downstack%3A expired ignore rule::.*no longer ignored/,
      ),
    );
    expect(lines.some((line) => line.startsWith('::error '))).toBe(false);
  });
});
