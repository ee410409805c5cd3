import { describe, expect, it } from 'vitest';
import { parseGitlabCi } from '../../src/parsers/gitlab-ci.js';
import { polyglot } from '../helpers/ecosystem-fixtures.js';

describe('GitLab CI', () => {
  it('lists images of the default, jobs, services and templates, hosted runner tags and remote includes', () => {
    const { text, path } = polyglot('.gitlab-ci.yml');
    const { dependencies, errors } = parseGitlabCi(text, path);
    expect(errors).toEqual([]);
    expect(dependencies.map((d) => [d.ecosystem, d.name, d.line])).toEqual([
      ['container-image', 'registry.gitlab.com/acme/ci-images/python:3.12', 10],
      ['container-image', 'postgres:16', 15],
      ['ci-action', 'runner:saas-linux-medium-amd64', 20],
      ['container-image', 'node:20-bookworm', 23],
      ['container-image', 'amazon/aws-cli:2.15.40', 29],
      ['domain', 'gitlab.example.org', 2],
      ['domain', 'gitlab.com', 4],
    ]);
  });
});
