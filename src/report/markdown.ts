// `--format markdown`: a comment for a pull request or an incident channel (GitHub-flavoured Markdown).
import type { CheckReport } from '../check.js';
import { describeExpired } from '../config/ignores.js';
import type { Finding } from '../model.js';
import { windowMs } from '../replay.js';
import { cleanLine } from '../sanitize.js';
import { formatDuration, formatRange, formatUtc } from '../time.js';
import { ranLabel, reachLabel, scheduleLabel } from './job-runs.js';
import { pathDisplay } from './display-path.js';
import { evidenceText, findingLocator } from './locate.js';
import {
  EMPTY_NOTES,
  byProvider,
  componentPhrase,
  countLabel,
  isHttpUrl,
  providerName,
  leadNote,
  replayLabel,
  statedDuration,
  statusFeed,
  touchedLabel,
  type RenderOptions,
  uniquePackages,
} from './shared.js';

export function renderMarkdown(report: CheckReport, options: RenderOptions): string {
  const paths = pathDisplay(report.root);
  const notes = options.notes ?? EMPTY_NOTES;
  const name = (id: string) => md(providerName(report, id));
  const active = report.findings.filter((finding) => finding.active).length;
  const out: string[] = [];

  const headline =
    report.findings.length === 0
      ? 'no provider incident touched this stack'
      : `${countLabel(report.findings.length, 'incident')} touched this stack${active ? ` (${active} still open)` : ''}`;
  out.push(`## downstack: ${headline}`, '');
  const dependencyCount = uniquePackages(report);
  out.push(
    `Window **${formatUtc(report.window.since)} → ${formatUtc(report.window.until)}** · ${countLabel(report.exposures.filter((e) => !e.through).length, 'provider')} from ${countLabel(report.inputs.length, 'input')}${paths.root ? ` in \`${code(paths.root)}\`` : ''} (${countLabel(dependencyCount, 'dependency', 'dependencies')})`,
    '',
  );

  if (report.findings.length > 0) {
    out.push(
      '### Incidents',
      '',
      '| State | Provider | Incident | Touched | Replay window |',
      '| --- | --- | --- | --- | --- |',
    );
    for (const finding of report.findings) out.push(findingRow(report, finding, options.now));
    out.push('', '### What to replay', '');
    for (const band of report.replay) {
      const end = band.to === null ? 'now (still open)' : formatUtc(band.to);
      out.push(
        `- **${formatUtc(band.from)} → ${end}** (${formatDuration(windowMs(band, options.now))}) — ${band.providers.map(name).join(', ')}`,
      );
      for (const runs of band.runs ?? []) {
        const reach = reachLabel(runs, band, (id) => providerName(report, id));
        const notes = runs.notes.map((note) => ` (${md(cleanLine(note, 200))})`).join('');
        out.push(
          `  - [ ] Check **${md(cleanLine(runs.job, 80))}** (\`${code(`${paths.show(runs.file)}${runs.line ? `:${runs.line}` : ''}`)}\`, \`${code(scheduleLabel(runs))}\`): ${ranLabel(runs, band)}${reach ? ` · ${md(reach)}` : ''}${notes}`,
        );
      }
    }
    out.push('', '### What to do', '');
    const locate = findingLocator(report);
    for (const [provider, findings] of byProvider(report.findings))
      out.push(...checklist(report, provider, findings, locate, options.now), '');
  } else if (report.recent.length > 0) {
    out.push('Most recent incidents of these providers, for context (outside the window or other components):', '');
    for (const incident of report.recent)
      out.push(
        `- ${formatUtc(incident.startedAt)} · ${name(incident.provider)}: ${md(cleanLine(incident.title, 120))}`,
      );
    out.push('');
  }

  const unread = [...report.errors, ...report.inputs.flatMap((input) => input.errors)];
  if (unread.length > 0) {
    out.push('### Inputs with problems', '');
    for (const problem of unread.slice(0, 20))
      out.push(
        `- \`${code(`${problem.file}${problem.line ? `:${problem.line}` : ''}`)}\`: ${md(cleanLine(problem.message, 300))}`,
      );
    if (unread.length > 20) out.push(`- and ${unread.length - 20} more (see the command's error output)`);
    out.push('');
  }

  if (notes.ignored.length > 0 || notes.expired.length > 0) {
    out.push('### Ignore rules', '');
    for (const { finding, rule } of notes.ignored) {
      out.push(
        `- Ignored until ${rule.expires} by \`${code(`${rule.file}:${rule.line}`)}\`: ${name(finding.provider)} · ${md(cleanLine(finding.incident.title, 100))} — ${md(cleanLine(rule.reason, 200))}`,
      );
    }
    for (const expired of notes.expired) out.push(`- ⚠️ ${md(cleanLine(describeExpired(expired), 400))}`);
    out.push('');
  }

  if (report.exposures.length > 0) {
    out.push(
      `<details><summary>${countLabel(report.exposures.length, 'provider')} in this stack</summary>`,
      '',
      '| Provider | Components | Why |',
      '| --- | --- | --- |',
    );
    for (const exposure of report.exposures) {
      const components = cleanLine(componentPhrase(exposure, 160), 320);
      const why = exposure.through
        ? `runs under ${name(exposure.through)}`
        : exposure.evidence
            .slice(0, 3)
            .map((dependency) => `\`${code(`${evidenceText(dependency, paths.show)}`)}\``)
            .join(', ') + (exposure.evidence.length > 3 ? ` and ${exposure.evidence.length - 3} more` : '');
      out.push(`| ${name(exposure.provider)} | ${md(components)}${exposure.devOnly ? ' (dev only)' : ''} | ${why} |`);
    }
    out.push('', '</details>', '');
  }
  out.push(`<sub>downstack · generated ${formatUtc(report.generatedAt)}</sub>`);
  return `${out.join('\n')}\n`;
}

function findingRow(report: CheckReport, finding: Finding, now: Date): string {
  const incident = finding.incident;
  const state = finding.active ? '🔴 **open**' : 'resolved';
  const title = md(cleanLine(incident.title, 120));
  const linked = isHttpUrl(incident.url) ? `[${title}](${linkTarget(incident.url)})` : title;
  const possibly = finding.confidence === 'possibly' ? ' (possibly: regional incident, your region is unknown)' : '';
  const through = finding.through ? ` (through ${md(providerName(report, finding.through))})` : '';
  const lead = finding.replay.lead ? `<br>${md(leadNote(finding.replay))}` : '';
  return `| ${state} | ${md(providerName(report, finding.provider))}${through} | ${linked} | ${md(touchedLabel(finding))}${possibly} | ${replayLabel(finding, now)}${lead} |`;
}

function checklist(
  report: CheckReport,
  provider: string,
  findings: Finding[],
  locate: ReturnType<typeof findingLocator>,
  now: Date,
): string[] {
  const name = md(providerName(report, provider));
  const lines = [`**${name}**`, ''];
  const components = [...new Set(findings.flatMap((finding) => finding.components))];
  const evidence = locate(findings[0] as Finding).primary;
  const because = evidence ? ` (found at \`${code(`${evidenceText(evidence, pathDisplay(report.root).show)}`)}\`)` : '';
  lines.push(
    `- [ ] Check whether you really use ${components.length ? md(components.join(', ')) : `any part of ${name}`}${because}.`,
  );
  for (const finding of findings) {
    const incident = finding.incident;
    const title = md(cleanLine(incident.title, 80));
    if (finding.active) {
      lines.push(
        `- [ ] "${title}" is still open: watch it, then confirm retries, queues and scheduled jobs caught up once it resolves (open ${formatDuration(windowMs(finding.replay, now))} so far).`,
      );
    } else {
      lines.push(
        `- [ ] "${title}": confirm retries, queues and scheduled jobs caught up after the ${statedDuration(incident, finding, now)}.`,
      );
    }
    const span =
      finding.replay.to === null
        ? `from ${formatUtc(finding.replay.from)} until it resolves`
        : `in ${formatRange(finding.replay.from, finding.replay.to)}`;
    lines.push(`- [ ] Replay work that failed ${span}.`);
  }
  const feed = statusFeed(report, provider);
  if (feed)
    lines.push(
      `- [ ] Subscribe to the ${feed.isFeed ? 'status feed' : 'status page'} of ${name}: <${linkTarget(feed.url)}>`,
    );
  return lines;
}

/**
 * Outside text inside Markdown, always placed mid-line (a table cell, a list item): one line (a line break would end
 * the table row or start a heading), inline markup characters backslash-escaped, HTML neutralised, and whatever GitHub
 * would turn into a link or a notification broken by a zero-width space, written as an entity so that it survives
 * the output boundary: `@mentions` and emails, `#1` and `owner/repo#1` references, `GH-1`, `https://` and `www.`.
 */
export function md(value: string): string {
  return cleanLine(value, 2000)
    .replace(/[\\`*_[\]|~]/g, (char) => `\\${char}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(LINKED, (found) => `${found[0]}${ZERO_WIDTH_SPACE}${found.slice(1)}`);
}

// One pass, so the entity put in for one match is never read as another (`&#8203;` holds `#8`).
const LINKED = /@|#(?=\d)|\bGH-(?=\d)|:\/\/|\bwww\./gi;
const ZERO_WIDTH_SPACE = '&#8203;';

/** Text inside an inline code span: a backtick would end it early. */
function code(text: string): string {
  return cleanLine(text, 300).replace(/`/g, "'");
}

function linkTarget(url: string): string {
  // Parentheses and angle brackets would end a link target, a pipe the table cell, a space or backslash the URL.
  return cleanLine(url, 2000).replace(
    /[()<> |\\`]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}
