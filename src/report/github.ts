// `--format github`: workflow commands that GitHub Actions turns into annotations on the dependency's line
// (https://docs.github.com/en/actions/reference/workflow-commands-for-github-actions).
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { CheckReport } from '../check.js';
import { describeExpired } from '../config/ignores.js';
import type { Finding } from '../model.js';
import { cleanLine, cleanText, joinText, type SafeText, text } from '../sanitize.js';
import { formatUtc } from '../time.js';
import { findingLocator } from './locate.js';
import { EMPTY_NOTES, countLabel, providerName, replayLabel, touchedLabel, type RenderOptions } from './shared.js';

type Level = 'error' | 'warning' | 'notice';

/** SafeText: the annotations are our own workflow commands, every value in them escaped as the runner unescapes it. */
export function renderGithub(report: CheckReport, options: RenderOptions): SafeText {
  const notes = options.notes ?? EMPTY_NOTES;
  const locate = findingLocator(report);
  const lines: SafeText[] = [];
  const annotate = (finding: Finding, level: Level, suffix = '') => {
    const { primary } = locate(finding);
    const name = providerName(report, finding.provider);
    const title = `${name}: ${finding.active ? 'open incident' : 'incident'} on ${touchedLabel(finding)}`;
    const body = [
      `${cleanLine(finding.incident.title, 200)}${finding.confidence === 'possibly' ? ' (possibly: regional incident, your region is unknown)' : ''}`,
      `Replay window: ${replayLabel(finding, options.now)}`,
      ...(finding.incident.url ? [cleanLine(finding.incident.url, 300)] : []),
      ...(suffix ? [suffix] : []),
    ].join('\n');
    lines.push(
      command(level, { file: primary ? annotationPath(primary.file) : undefined, line: primary?.line, title }, body),
    );
  };

  for (const finding of report.findings) annotate(finding, finding.active ? 'error' : 'warning');
  for (const { finding, rule } of notes.ignored)
    annotate(
      finding,
      'notice',
      `Ignored by ${rule.file}:${rule.line} until ${rule.expires}: ${cleanLine(rule.reason, 200)}`,
    );
  for (const expired of notes.expired)
    lines.push(
      command(
        'warning',
        { file: annotationPath(expired.rule.file), line: expired.rule.line, title: 'downstack: expired ignore rule' },
        describeExpired(expired),
      ),
    );
  for (const problem of report.errors)
    lines.push(
      command(
        'error',
        { file: annotationPath(problem.file), line: problem.line, title: 'downstack: input not read' },
        problem.message,
      ),
    );

  // A plain summary line for the log; no remote text in it, so it can never be read as a command.
  const active = report.findings.filter((finding) => finding.active).length;
  const bands = report.replay.map(
    (band) => `${formatUtc(band.from)} → ${band.to === null ? 'now' : formatUtc(band.to)}`,
  );
  lines.push(
    text`downstack: ${countLabel(report.findings.length, 'incident')} touched this stack (${active} open) between ${formatUtc(report.window.since)} and ${formatUtc(report.window.until)}${bands.length > 0 ? `; replay ${bands.join(', ')}` : ''}`,
  );
  return text`${joinText(lines)}\n`;
}

/**
 * Annotations attach to files by their path in the repository; the job runs in the checkout, so an absolute
 * path inside the working directory is made relative to it.
 */
export function annotationPath(file: string): string {
  if (!isAbsolute(file)) return file.split(sep).join('/');
  const inside = relative(resolve('.'), file);
  return inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside.split(sep).join('/') : file;
}

/**
 * `::level file=…,line=…,title=…::message`, escaped as the runner unescapes it (actions/toolkit's escapeData and
 * escapeProperty). The one place downstack starts a line with `::` on purpose: a literal in a `text` template.
 */
export function command(
  level: Level,
  properties: Record<string, string | number | undefined>,
  message: string,
): SafeText {
  const props = Object.entries(properties)
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([key, value]) => `${key}=${escapeProperty(String(value))}`)
    .join(',');
  return text`::${level}${props ? ` ${props}` : ''}::${escapeData(message)}`;
}

/** Controls out, line breaks kept and escaped; `%` first, so an escape in the text cannot be unescaped twice. */
export function escapeData(value: string): string {
  return cleanForCommand(value).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(value: string): string {
  return escapeData(value).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** Terminal escapes and other controls out, each line cleaned, line breaks kept (they are escaped, not dropped). */
function cleanForCommand(value: string): string {
  return cleanText(value, 4000)
    .split('\n')
    .map((line) => cleanLine(line, 2000))
    .join('\n');
}
