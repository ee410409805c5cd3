import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.js';
import { parseRequirementsTxt, requirementsTxtParser } from '../../src/parsers/requirements-txt.js';
import { scanPaths } from '../../src/scan.js';
import { byName, POLYGLOT, polyglot } from '../helpers/ecosystem-fixtures.js';

describe('requirements files', () => {
  it('reads pip-compile output: pins as versions, hashes and markers skipped, # via comments as chains', () => {
    const { text, path } = polyglot('api/requirements.txt');
    const { dependencies, errors } = parseRequirementsTxt(text, path);
    expect(errors).toEqual([]);
    expect(dependencies.map((d) => d.name)).toEqual([
      'boto3',
      'botocore',
      'certifi',
      'jmespath',
      's3transfer',
      'sentry-sdk',
      'stripe',
      'urllib3',
    ]);
    expect(byName(dependencies, 'boto3')).toMatchObject({
      ecosystem: 'pypi',
      version: '1.34.84',
      line: 9,
      direct: true,
      via: ['requirements.txt', 'boto3'],
    });
    expect(byName(dependencies, 'sentry-sdk')).toMatchObject({ version: '1.45.0', direct: true });
    expect(byName(dependencies, 's3transfer')).toMatchObject({
      direct: false,
      via: ['requirements.txt', 'boto3', 's3transfer'],
    });
    expect(byName(dependencies, 'botocore').via).toEqual(['requirements.txt', 'boto3', 'botocore']);
    expect(byName(dependencies, 'urllib3')).toMatchObject({ version: '2.2.1', line: 38 });
  });

  it('treats a file without # via comments as declarations, dev files as dev, and skips editable, URL and option lines', () => {
    const { text, path } = polyglot('api/requirements-dev.txt');
    const { dependencies, errors } = parseRequirementsTxt(text, path);
    expect(errors).toEqual([]);
    expect(dependencies.map((d) => [d.name, d.version, d.kind, d.direct])).toEqual([
      ['pytest', '8.1.1', 'dev', true],
      ['moto', '>=5.0', 'dev', true],
      ['acme-testing', undefined, 'dev', true],
      ['requests-mock', undefined, 'dev', true],
    ]);
  });

  it('follows -r into a file the scan would not read on its own, and leaves requirements*.txt to the scan', async () => {
    const scan = await scanPaths([`${POLYGLOT}/api/requirements-dev.txt`]);
    const [input] = scan.inputs;
    expect(input?.dependencies.map((d) => d.name)).toContain('sendgrid');
    expect(byName(input?.dependencies ?? [], 'sendgrid')).toMatchObject({
      file: `${POLYGLOT}/api/deps/common.txt`,
      line: 2,
      via: ['requirements-dev.txt', 'common.txt', 'sendgrid'],
    });
    // requirements.txt is claimed by the parser, so it is read as its own input, not through -r.
    expect(input?.dependencies.map((d) => d.name)).not.toContain('boto3');
  });

  it('says where an unreadable line is and keeps the rest', () => {
    const { dependencies, errors } = parseRequirementsTxt('stripe==9.1.0\n!!! not a requirement\nboto3\n', 'r.txt');
    expect(dependencies.map((d) => d.name)).toEqual(['stripe', 'boto3']);
    expect(errors).toEqual([{ file: 'r.txt', line: 2, message: expect.stringMatching(/not a requirement/) }]);
  });

  it('refuses a file left mid-merge, at the marker line', () => {
    expect(() => parseRequirementsTxt('stripe==9\n<<<<<<< HEAD\nboto3==1\n=======\n>>>>>>> main\n', 'r.txt')).toThrow(
      ParseError,
    );
  });

  it('claims requirements files by name and recognises a pasted one', () => {
    for (const path of ['requirements.txt', 'requirements-dev.txt', 'dev-requirements.txt', 'requirements/base.txt'])
      expect(requirementsTxtParser.matches(path), path).toBe(true);
    expect(requirementsTxtParser.matches('notes.txt')).toBe(false);
    expect(requirementsTxtParser.sniff('boto3==1.34.0\nstripe>=9\n')).toBe(true);
    expect(requirementsTxtParser.sniff('api.stripe.com\nacme.herokuapp.com\n')).toBe(false);
  });
});
