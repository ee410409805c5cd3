// `--format html`: one self-contained file for an incident review — inline CSS and SVG, no script, no network
// (a Content-Security-Policy forbids every fetch), and a print stylesheet so it reads on paper.
import type { CheckReport } from '../check.js';
import { describeExpired } from '../config/ignores.js';
import type { Dependency, Finding } from '../model.js';
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
} from './shared.js';
import { renderTimeline } from './timeline-svg.js';
import { escapeXml as x } from './xml.js';

const STYLE = `
:root { --active: #c62828; --resolved: #e08600; --replay: #1565c0; --run: #111; --ink: #1d1d1f; --muted: #5f6368; --line: #d9dce1; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); margin: 0 auto; padding: 24px; max-width: 1080px; }
h1 { font-size: 1.6em; margin: 0 0 4px; } h2 { font-size: 1.2em; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
.meta, .muted { color: var(--muted); } a { color: #0b57d0; }
table { border-collapse: collapse; width: 100%; font-size: 0.93em; } th, td { text-align: left; vertical-align: top; padding: 6px 8px; border-bottom: 1px solid var(--line); }
th { background: #f5f6f8; } .state { font-weight: 600; white-space: nowrap; } .state.active { color: var(--active); } .state.resolved { color: #8a5300; }
.timeline { width: 100%; height: auto; font: 12px system-ui, sans-serif; }
.timeline .row-bg { fill: #fff; } .timeline .row-bg.odd { fill: #f7f8fa; } .timeline .row-bg.replay { fill: #eef3fb; }
.timeline .row-label { fill: var(--ink); } .timeline .row-label.strong { font-weight: 600; } .timeline .tick { fill: var(--muted); }
.timeline .grid { stroke: var(--line); stroke-dasharray: 2 3; } .timeline .axis { stroke: var(--muted); }
.timeline .band.active { fill: var(--active); } .timeline .band.resolved { fill: var(--resolved); }
.timeline .band.possibly { fill: url(#hatch); stroke: var(--resolved); stroke-width: 1.5; }
.timeline .hatch-bg { fill: #fff3e0; } .timeline .hatch-line { stroke: var(--resolved); stroke-width: 2; }
.timeline .band.open, .timeline .replay-band.open { stroke: var(--ink); stroke-width: 1.5; stroke-dasharray: 4 2; }
.timeline .replay-band { fill: var(--replay); } .timeline .band-label { fill: var(--ink); font-size: 11px; }
.timeline .run { stroke: var(--run); stroke-width: 2; } .timeline .run-stretch { fill: var(--run); }
.timeline .now { stroke: var(--ink); stroke-width: 1; stroke-dasharray: 1 2; } .timeline .replay-shade { fill: var(--replay); opacity: 0.08; }
.legend { display: flex; gap: 18px; flex-wrap: wrap; font-size: 0.9em; color: var(--muted); margin-top: 6px; }
.legend i { display: inline-block; width: 14px; height: 10px; border-radius: 2px; margin-right: 5px; vertical-align: middle; }
.checklist { list-style: none; padding-left: 0; } .checklist li { margin: 3px 0; padding-left: 1.6em; text-indent: -1.6em; }
.checklist li::before { content: "☐"; display: inline-block; width: 1.6em; text-indent: 0; }
code { font: 0.9em ui-monospace, SFMono-Regular, Menlo, monospace; background: #f1f3f4; padding: 0 3px; border-radius: 3px; }
.warning { color: #8a5300; }
@page { size: A4 landscape; margin: 12mm; }
@media print {
  body { padding: 0; max-width: none; font-size: 10.5pt; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  section, tr, li, .timeline { break-inside: avoid; }
  h2 { break-after: avoid; }
  a { color: inherit; text-decoration: none; }
  a.incident::after { content: " — " attr(href); font-size: 0.85em; color: var(--muted); word-break: break-all; }
}
`;

export function renderHtml(report: CheckReport, options: RenderOptions): string {
  const paths = pathDisplay(report.root);
  const notes = options.notes ?? EMPTY_NOTES;
  const name = (id: string) => x(providerName(report, id));
  const open = report.findings.filter((finding) => finding.active).length;
  const headline =
    report.findings.length === 0
      ? 'No provider incident touched this stack'
      : `${countLabel(report.findings.length, 'incident')} touched this stack${open ? ` (${open} still open)` : ''}`;
  const window = `${formatUtc(report.window.since)} → ${formatUtc(report.window.until)}`;
  const body: string[] = [];

  body.push(
    `<header><h1>downstack: ${x(headline)}</h1><p class="meta">Window ${x(window)} · generated ${x(formatUtc(report.generatedAt))} · ${countLabel(report.exposures.length, 'provider')} in the stack${paths.root ? ` · scanned <code>${x(cleanLine(paths.root, 200))}</code>` : ''}</p></header>`,
  );

  if (report.findings.length > 0) {
    body.push('<section id="timeline"><h2>Timeline</h2>', renderTimeline(report, options.now));
    body.push(
      '<div class="legend"><span><i style="background:var(--active)"></i>open incident</span><span><i style="background:var(--resolved)"></i>resolved incident</span>' +
        '<span><i style="background:repeating-linear-gradient(45deg,#fff3e0 0 3px,var(--resolved) 3px 5px)"></i>possibly (regional, your region unknown)</span>' +
        `<span><i style="background:var(--replay)"></i>merged replay window</span>${report.replay.some((band) => band.runs?.length) ? '<span><i style="background:var(--run);width:3px"></i>scheduled job run</span>' : ''}<span>dashed edge: still open</span></div></section>`,
    );
    body.push(
      '<section id="incidents"><h2>Incidents</h2><table><thead><tr><th>State</th><th>Provider</th><th>Incident</th><th>Touched</th><th>Replay window</th></tr></thead><tbody>',
    );
    for (const finding of report.findings) body.push(incidentRow(report, finding, options.now));
    body.push('</tbody></table></section>');

    body.push('<section id="replay"><h2>What to replay</h2><ul>');
    for (const band of report.replay) {
      const end = band.to === null ? 'now (still open)' : formatUtc(band.to);
      const runs = (band.runs ?? []).map((entry) => {
        const reach = reachLabel(entry, band, (id) => providerName(report, id));
        const notes = entry.notes.map((note) => `<br><span class="muted">${x(cleanLine(note, 200))}</span>`).join('');
        return `<li class="job-run">Check <strong>${x(cleanLine(entry.job, 80))}</strong> (<code>${x(cleanLine(`${paths.show(entry.file)}${entry.line ? `:${entry.line}` : ''}`, 200))}</code>, <code>${x(cleanLine(scheduleLabel(entry), 120))}</code>): ${x(ranLabel(entry, band))}${reach ? ` · <span class="muted">${x(reach)}</span>` : ''}${notes}</li>`;
      });
      body.push(
        `<li><strong>${x(formatUtc(band.from))} → ${x(end)}</strong> (${x(formatDuration(windowMs(band, options.now)))}) — ${band.providers.map(name).join(', ')}${runs.length > 0 ? `<ul class="checklist">${runs.join('')}</ul>` : ''}</li>`,
      );
    }
    body.push('</ul></section>');

    body.push('<section id="todo"><h2>What to do</h2>');
    const locate = findingLocator(report);
    for (const [provider, findings] of byProvider(report.findings))
      body.push(checklist(report, provider, findings, locate(findings[0] as Finding).primary, options.now));
    body.push('</section>');
  } else {
    body.push(`<section><p>No incident between ${x(window)} touched the components this stack uses.</p>`);
    if (report.recent.length > 0) {
      body.push('<p class="muted">Most recent incidents of these providers, for context:</p><ul>');
      for (const incident of report.recent)
        body.push(
          `<li>${x(formatUtc(incident.startedAt))} · ${name(incident.provider)}: ${x(cleanLine(incident.title, 140))}</li>`,
        );
      body.push('</ul>');
    }
    body.push('</section>');
  }

  const unread = [...report.errors, ...report.inputs.flatMap((input) => input.errors)];
  if (unread.length > 0) {
    body.push('<section id="problems"><h2>Inputs with problems</h2><ul>');
    for (const problem of unread)
      body.push(
        `<li><code>${x(`${problem.file}${problem.line ? `:${problem.line}` : ''}`)}</code>: ${x(cleanLine(problem.message, 300))}</li>`,
      );
    body.push('</ul></section>');
  }

  if (notes.ignored.length > 0 || notes.expired.length > 0) {
    body.push('<section id="ignores"><h2>Ignore rules</h2><ul>');
    for (const { finding, rule } of notes.ignored) {
      body.push(
        `<li>Ignored until ${x(rule.expires)} by <code>${x(`${rule.file}:${rule.line}`)}</code>: ${name(finding.provider)} · ${x(cleanLine(finding.incident.title, 120))} — ${x(cleanLine(rule.reason, 200))}</li>`,
      );
    }
    for (const expired of notes.expired)
      body.push(`<li class="warning">${x(cleanLine(describeExpired(expired), 400))}</li>`);
    body.push('</ul></section>');
  }

  if (report.exposures.length > 0) {
    body.push(
      '<section id="providers"><h2>Providers in this stack</h2><table><thead><tr><th>Provider</th><th>Components</th><th>Why</th></tr></thead><tbody>',
    );
    for (const exposure of report.exposures) {
      const components = cleanLine(componentPhrase(exposure, 160), 320);
      const why = exposure.through
        ? `runs under ${name(exposure.through)}`
        : exposure.evidence
            .map((dependency) => `<code>${x(`${evidenceText(dependency, paths.show)}`)}</code>`)
            .join(' ');
      body.push(
        `<tr><td>${name(exposure.provider)}</td><td>${x(components)}${exposure.devOnly ? ' <span class="muted">(dev only)</span>' : ''}</td><td>${why}</td></tr>`,
      );
    }
    body.push('</tbody></table></section>');
  }
  body.push(
    `<footer class="muted"><p>downstack · times in UTC · generated ${x(formatUtc(report.generatedAt))}</p></footer>`,
  );

  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>downstack: ${x(headline)} (${x(window)})</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    ...body,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function incidentRow(report: CheckReport, finding: Finding, now: Date): string {
  const incident = finding.incident;
  const state = finding.active
    ? '<span class="state active">● open</span>'
    : '<span class="state resolved">resolved</span>';
  const title = x(cleanLine(incident.title, 160));
  const linked = isHttpUrl(incident.url) ? `<a class="incident" href="${x(incident.url)}">${title}</a>` : title;
  const possibly =
    finding.confidence === 'possibly'
      ? '<br><span class="muted">possibly: regional incident, your region is unknown</span>'
      : '';
  const through = finding.through
    ? `<br><span class="muted">through ${x(providerName(report, finding.through))}</span>`
    : '';
  const stated = incident.impactWindow
    ? `<br><span class="muted">stated impact ${x(formatRange(incident.impactWindow.from, incident.impactWindow.to))}</span>`
    : finding.replay.lead
      ? `<br><span class="muted">${x(leadNote(finding.replay))}</span>`
      : '';
  return `<tr><td>${state}</td><td>${x(providerName(report, finding.provider))}${through}</td><td>${linked}<br><span class="muted">impact ${x(incident.impact)}</span></td><td>${x(touchedLabel(finding))}${possibly}</td><td>${x(replayLabel(finding, now))}${stated}</td></tr>`;
}

function checklist(
  report: CheckReport,
  provider: string,
  findings: Finding[],
  evidence: Dependency | undefined,
  now: Date,
): string {
  const name = x(providerName(report, provider));
  const items: string[] = [];
  const components = [...new Set(findings.flatMap((finding) => finding.components))];
  const because = evidence
    ? ` (found at <code>${x(`${evidenceText(evidence, pathDisplay(report.root).show)}`)}</code>)`
    : '';
  items.push(
    `Check whether you really use ${components.length ? x(components.join(', ')) : `any part of ${name}`}${because}.`,
  );
  for (const finding of findings) {
    const title = x(cleanLine(finding.incident.title, 100));
    items.push(
      finding.active
        ? `“${title}” is still open: watch it, then confirm retries, queues and scheduled jobs caught up once it resolves (open ${x(formatDuration(windowMs(finding.replay, now)))} so far).`
        : `“${title}”: confirm retries, queues and scheduled jobs caught up after the ${x(statedDuration(finding.incident, finding, now))}.`,
    );
    items.push(
      finding.replay.to === null
        ? `Replay work that failed from ${x(formatUtc(finding.replay.from))} until it resolves.`
        : `Replay work that failed in ${x(formatRange(finding.replay.from, finding.replay.to))}.`,
    );
  }
  const feed = statusFeed(report, provider);
  if (feed)
    items.push(
      `Subscribe to the ${feed.isFeed ? 'status feed' : 'status page'} of ${name}: <a href="${x(feed.url)}">${x(feed.url)}</a>`,
    );
  return `<h3>${name}</h3><ul class="checklist">${items.map((item) => `<li>${item}</li>`).join('')}</ul>`;
}
