import { describe, expect, it } from 'vitest';
import { dockerfileParser, parseDockerfile } from '../../src/parsers/dockerfile.js';
import { polyglot } from '../helpers/ecosystem-fixtures.js';

describe('Dockerfile', () => {
  it('lists the images a multi-stage build pulls, ARG defaults filled in, stages and continuation lines followed', () => {
    const { text, path } = polyglot('Dockerfile');
    const { dependencies, errors } = parseDockerfile(text, path);
    expect(errors).toEqual([]);
    expect(dependencies.map((d) => [d.ecosystem, d.name, d.line])).toEqual([
      ['container-image', 'docker/dockerfile:1.7', 1],
      ['container-image', 'python:3.12-slim', 5],
      ['container-image', 'ghcr.io/astral-sh/uv:0.4.18', 7],
      ['container-image', '123456789012.dkr.ecr.eu-west-1.amazonaws.com/acme/base:2024.05', 13],
    ]);
  });

  it('keeps an image whose tag is unknown, and skips with a located note one whose registry is unknown', () => {
    const { dependencies, errors } = parseDockerfile(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a Dockerfile writes build arguments as ${NAME}
      'ARG NODE_VERSION\nFROM node:${NODE_VERSION}\nARG BASE\nFROM ${BASE}/app:1\nFROM scratch\n',
      'Dockerfile',
    );
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the image is kept as written
    expect(dependencies.map((d) => d.name)).toEqual(['node:${NODE_VERSION}']);
    expect(errors).toEqual([{ file: 'Dockerfile', line: 4, message: expect.stringMatching(/build argument BASE/) }]);
  });

  it('claims Dockerfile, Containerfile and their variants', () => {
    for (const path of ['Dockerfile', 'Dockerfile.prod', 'api.Dockerfile', 'Containerfile'])
      expect(dockerfileParser.matches(path), path).toBe(true);
  });
});
