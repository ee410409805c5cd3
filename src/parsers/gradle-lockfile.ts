// gradle.lockfile (https://docs.gradle.org/current/userguide/dependency_locking.html): one resolved module a line,
// `group:name:version=configuration,…`, for every configuration the build locks. No graph, and no word on which
// modules the build script declares (build.gradle says that).
import { ParseError } from '../errors.js';
import type { Dependency, InputProblem } from '../model.js';
import { assertNoConflictMarkers } from './lockfile/lock-text.js';
import { projectName } from './packages/declared.js';
import { basename, type Parser, type ParseResult } from './types.js';

const ENTRY = /^([^:\s=]+):([^:\s=]+):([^:\s=]+)=(.*)$/;

export function parseGradleLockfile(text: string, path: string): ParseResult {
  assertNoConflictMarkers(text, path, 'gradle dependencies --write-locks rewrites a conflicted lockfile');
  const errors: InputProblem[] = [];
  const dependencies: Dependency[] = [];
  const root = projectName(path);
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] as string).trim();
    if (!line || line.startsWith('#') || line.startsWith('empty=')) continue;
    const hit = ENTRY.exec(line);
    if (!hit) {
      errors.push({
        file: path,
        line: index + 1,
        message: `not a locked module (group:name:version=configurations): "${line.slice(0, 80)}"; skipped`,
      });
      continue;
    }
    const configurations = (hit[4] as string).split(',').filter(Boolean);
    const testOnly =
      configurations.length > 0 && configurations.every((name) => /^(test|androidTest|integrationTest)/.test(name));
    const name = `${hit[1]}:${hit[2]}`;
    dependencies.push({
      ecosystem: 'maven',
      name,
      version: hit[3] as string,
      file: path,
      line: index + 1,
      // Locked modules include every transitive one; which the script declares is build.gradle's to say.
      direct: false,
      via: [root, '(the build)', name],
      kind: testOnly ? 'dev' : 'prod',
    });
  }
  if (dependencies.length === 0 && errors.length > 0)
    throw new ParseError(path, errors[0]?.line, errors[0]?.message ?? 'no locked modules');
  return { dependencies, errors };
}

export const gradleLockfileParser: Parser = {
  kind: 'gradle.lockfile',
  matches: (path) => /^(.+\.)?gradle\.lockfile$|^buildscript-gradle\.lockfile$/.test(basename(path)),
  sniff: (text) => /^# This is a Gradle generated file for dependency locking\./m.test(text),
  parse: parseGradleLockfile,
};
