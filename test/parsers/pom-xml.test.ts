import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.js';
import { parsePomXml } from '../../src/parsers/pom-xml.js';
import { byName, polyglot } from '../helpers/ecosystem-fixtures.js';

describe('pom.xml', () => {
  const { text, path } = polyglot('billing/pom.xml');

  it('reads dependencies with properties filled in; managed entries and BOMs are not dependencies', () => {
    const { dependencies, errors } = parsePomXml(text, path);
    expect(errors).toEqual([]);
    expect(dependencies.map((d) => d.name)).toEqual([
      'org.springframework.boot:spring-boot-starter-web',
      'com.stripe:stripe-java',
      'software.amazon.awssdk:dynamodb',
      'com.datadoghq:dd-trace-api',
      'org.testcontainers:localstack',
    ]);
    expect(byName(dependencies, 'com.stripe:stripe-java')).toMatchObject({
      ecosystem: 'maven',
      version: '25.3.0',
      line: 41,
      via: ['com.acme:billing', 'com.stripe:stripe-java'],
    });
  });

  it('keeps test scope as dev and <optional> as optional', () => {
    const { dependencies } = parsePomXml(text, path);
    expect(byName(dependencies, 'org.testcontainers:localstack').kind).toBe('dev');
    expect(byName(dependencies, 'com.datadoghq:dd-trace-api').kind).toBe('optional');
    expect(byName(dependencies, 'software.amazon.awssdk:dynamodb').version).toBeUndefined();
  });

  it('reports broken XML at its line', () => {
    try {
      parsePomXml('<project>\n  <dependencies>\n    <dependency>\n  </dependencies>\n</project>\n', 'pom.xml');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ParseError);
      expect((error as ParseError).message).toMatch(/invalid XML/);
      expect((error as ParseError).line).toBe(4);
    }
  });
});
