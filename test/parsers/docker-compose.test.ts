import { describe, expect, it } from 'vitest';
import { parseDockerCompose, readDotEnv } from '../../src/parsers/docker-compose.js';
import { scanPaths } from '../../src/scan.js';
import { POLYGLOT, polyglot } from '../helpers/ecosystem-fixtures.js';

describe('Compose files', () => {
  it("lists each service's image, defaults filled in, and notes an image whose registry is unknown", () => {
    const { text, path } = polyglot('docker-compose.yml');
    const { dependencies, errors } = parseDockerCompose(text, path);
    expect(dependencies.map((d) => [d.name, d.line, d.via[0]])).toEqual([
      ['us-central1-docker.pkg.dev/acme-prod/services/api:latest', 4, 'service api'],
      ['postgres:16-alpine', 7, 'service db'],
      ['bitnami/redis:7.2', 9, 'service cache'],
    ]);
    expect(errors.map((e) => e.line)).toEqual([11, 13]);
  });

  it('takes variables from the .env beside the file, as docker compose does', async () => {
    const scan = await scanPaths([`${POLYGLOT}/docker-compose.yml`]);
    expect(scan.inputs[0]?.dependencies.map((d) => d.name)).toContain('quay.io/acme/search:1.2');
    expect(scan.inputs[0]?.errors.map((e) => e.message)).toEqual([expect.stringMatching(/QUEUE_REGISTRY/)]);
  });

  it('reads .env values with export, quotes and comments', () => {
    expect(readDotEnv('export A=1\nB="two words"\nC=3 # note\n# D=4\n')).toEqual(
      new Map([
        ['A', '1'],
        ['B', 'two words'],
        ['C', '3'],
      ]),
    );
  });
});
