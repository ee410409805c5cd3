import { describe, expect, it } from 'vitest';
import { parseBuildGradle } from '../../src/parsers/build-gradle.js';
import { parseGradleLockfile } from '../../src/parsers/gradle-lockfile.js';
import { parseVersionCatalog } from '../../src/parsers/gradle-version-catalog.js';
import { scanPaths } from '../../src/scan.js';
import { byName, POLYGLOT, polyglot } from '../helpers/ecosystem-fixtures.js';

describe('Gradle', () => {
  it('reads string and map notation from a build script, test configurations as dev, platform() BOMs left out', () => {
    const { text, path } = polyglot('android/build.gradle.kts');
    const { dependencies } = parseBuildGradle(text, path);
    expect(dependencies.map((d) => [d.name, d.version, d.kind, d.line])).toEqual([
      ['io.sentry:sentry-android', '7.8.0', 'prod', 14],
      ['com.squareup.okhttp3:okhttp', '4.12.0', 'prod', 15],
      ['junit:junit', '4.13.2', 'dev', 17],
    ]);
  });

  it('resolves version-catalog accessors and bundles through gradle/libs.versions.toml beside the script', async () => {
    const scan = await scanPaths([`${POLYGLOT}/android/build.gradle.kts`]);
    const dependencies = scan.inputs[0]?.dependencies ?? [];
    expect(byName(dependencies, 'com.google.firebase:firebase-messaging-ktx')).toMatchObject({
      line: 13,
      kind: 'prod',
    });
    expect(byName(dependencies, 'com.mixpanel.android:mixpanel-android')).toMatchObject({ version: '7.5.0', line: 16 });
    expect(byName(dependencies, 'com.segment.analytics.kotlin:android').line).toBe(16);
    expect(byName(dependencies, 'androidx.test.ext:junit').kind).toBe('dev');
    expect(dependencies.map((d) => d.name)).not.toContain('com.google.firebase:firebase-bom');
    expect(scan.inputs[0]?.errors).toEqual([]);
  });

  it('reads a version catalog on its own, versions by reference', () => {
    const { text, path } = polyglot('android/gradle/libs.versions.toml');
    const { dependencies, errors } = parseVersionCatalog(text, path);
    expect(errors).toEqual([]);
    expect(byName(dependencies, 'com.segment.analytics.kotlin:android')).toMatchObject({ version: '1.16.3', line: 9 });
    expect(byName(dependencies, 'androidx.test.ext:junit').version).toBe('1.1.5');
  });

  it('reads gradle.lockfile: every locked module, test-only classpaths as dev', () => {
    const { text, path } = polyglot('android/gradle.lockfile');
    const { dependencies, errors } = parseGradleLockfile(text, path);
    expect(errors).toEqual([]);
    expect(dependencies).toHaveLength(6);
    expect(byName(dependencies, 'io.sentry:sentry')).toMatchObject({
      version: '7.8.0',
      line: 8,
      kind: 'prod',
      direct: false,
    });
    expect(byName(dependencies, 'junit:junit').kind).toBe('dev');
    expect(parseGradleLockfile('com.acme:x:1=compileClasspath\nbroken line\n', 'gradle.lockfile').errors).toEqual([
      { file: 'gradle.lockfile', line: 2, message: expect.stringMatching(/not a locked module/) },
    ]);
  });
});
