import { describe, expect, it } from 'vitest';
import { parseMsbuildProject, parsePackagesConfig } from '../../src/parsers/msbuild-project.js';
import { parseNugetLock } from '../../src/parsers/nuget-lock.js';
import { byName, polyglot } from '../helpers/ecosystem-fixtures.js';

describe('.NET projects', () => {
  it('reads PackageReference items, the version as attribute or element, analyzers as dev', () => {
    const { text, path } = polyglot('dotnet/Api/Api.csproj');
    const { dependencies, errors } = parseMsbuildProject(text, path);
    expect(errors).toEqual([]);
    expect(dependencies.map((d) => [d.name, d.version, d.kind, d.line])).toEqual([
      ['Azure.Storage.Blobs', '12.19.1', 'prod', 10],
      ['Azure.Identity', '1.11.2', 'prod', 11],
      ['SendGrid', '9.29.3', 'prod', 12],
      ['StackExchange.Redis', '2.7.33', 'prod', 13],
      ['Microsoft.CodeAnalysis.NetAnalyzers', '8.0.0', 'dev', 14],
      ['Sentry.AspNetCore', '4.4.0', 'prod', 21],
    ]);
    expect(dependencies[0]?.via).toEqual(['Api', 'Azure.Storage.Blobs']);
  });

  it('reads packages.config', () => {
    const { dependencies } = parsePackagesConfig(
      '<?xml version="1.0" encoding="utf-8"?>\n<packages>\n  <package id="Twilio" version="5.81.0" targetFramework="net472" />\n  <package id="StyleCop.Analyzers" version="1.1.118" developmentDependency="true" />\n</packages>\n',
      'Legacy/packages.config',
    );
    expect(dependencies.map((d) => [d.name, d.version, d.kind, d.line])).toEqual([
      ['Twilio', '5.81.0', 'prod', 3],
      ['StyleCop.Analyzers', '1.1.118', 'dev', 4],
    ]);
  });

  it('reads packages.lock.json: Direct packages start the chains, Transitive ones follow', () => {
    const { text, path } = polyglot('dotnet/Api/packages.lock.json');
    const { dependencies, errors } = parseNugetLock(text, path);
    expect(errors).toEqual([]);
    expect(byName(dependencies, 'SendGrid')).toMatchObject({
      ecosystem: 'nuget',
      version: '9.29.3',
      direct: true,
      line: 30,
    });
    expect(byName(dependencies, 'Microsoft.Identity.Client')).toMatchObject({
      direct: false,
      via: ['Api', 'Azure.Identity', 'Microsoft.Identity.Client'],
    });
    expect(byName(dependencies, 'Sentry').via).toEqual([
      'Api',
      'Sentry.AspNetCore',
      'Sentry.Extensions.Logging',
      'Sentry',
    ]);
  });
});
