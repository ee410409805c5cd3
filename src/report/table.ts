// The terminal report: providers → why → incidents → what to replay, readable in five seconds.
import { Chalk, type ChalkInstance } from 'chalk';
import type { CheckReport } from '../check.js';
import type { Dependency, Exposure, Finding, ReplayBand } from '../model.js';
import { windowMs } from '../replay.js';
import { cleanLine } from '../sanitize.js';
import { evidenceText } from './locate.js';
import { formatAgo, formatDuration, formatRange, formatUtc } from '../time.js';
import { ranLabel, reachLabel, scheduleLabel } from './job-runs.js';

export interface TableOptions {
  color: boolean;
  now: Date;
}

export function renderTable(report: CheckReport, options: TableOptions): string {
  const c = new Chalk({ level: options.color ? 1 : 0 });
  const name = (id: string) => report.catalog.providers.get(id)?.name ?? id;
  const out: string[] = [];
  const dependencyCount = report.inputs.reduce((sum, input) => sum + input.dependencies.length, 0);
  const direct = report.exposures.filter((exposure) => !exposure.through);

  out.push(
    `${c.bold('downstack')}  ${plural(direct.length, 'provider')}${upstreamCount(report)} from ${plural(report.inputs.length, 'input')} (${plural(dependencyCount, 'dependency', 'dependencies')})` +
      `  ·  window ${formatUtc(report.window.since)} → ${formatUtc(report.window.until)}`,
  );
  out.push(c.dim(indexLine(report, options.now)));
  out.push('');

  if (report.exposures.length === 0) {
    out.push('No dependency maps to a provider in the catalog, so no incident can touch this stack.');
    out.push(...notInCatalogLines(report.notInCatalog, c));
    out.push(
      c.dim(
        'If you use a SaaS that is missing, add it: see CONTRIBUTING.md (`downstack providers` lists what is known).',
      ),
    );
    return `${out.join('\n')}\n`;
  }

  out.push(c.bold('Providers'));
  const width = Math.min(24, Math.max(...report.exposures.map((exposure) => name(exposure.provider).length)) + 2);
  for (const exposure of report.exposures) {
    const label = name(exposure.provider).padEnd(width);
    const components = componentSummary(exposure);
    const why = exposure.through ? `runs under ${name(exposure.through)}` : evidenceSummary(exposure.evidence);
    const dev = exposure.devOnly ? c.dim(' (dev only)') : '';
    out.push(`  ${c.bold(label)}${components}${dev}`);
    out.push(`  ${' '.repeat(width)}${c.dim(`← ${why}`)}`);
  }
  out.push(...notInCatalogLines(report.notInCatalog, c));
  out.push('');

  if (report.findings.length === 0) {
    out.push(
      c.green(
        `No incident between ${formatUtc(report.window.since)} and ${formatUtc(report.window.until)} touched the components this stack uses.`,
      ),
    );
    if (report.recent.length > 0) {
      out.push(
        c.dim('Most recent incidents of these providers, for context (outside the window or other components):'),
      );
      for (const incident of report.recent) {
        out.push(
          c.dim(`  ${formatUtc(incident.startedAt)}  ${name(incident.provider)}: ${cleanLine(incident.title, 90)}`),
        );
      }
    }
    return `${out.join('\n')}\n`;
  }

  out.push(c.bold(`Incidents that touched this stack (${report.findings.length})`));
  for (const finding of report.findings) out.push(...renderFinding(finding, c, name, options.now), '');

  out.push(c.bold('What to replay'));
  for (const band of report.replay) {
    const length = formatDuration(windowMs(band, options.now));
    const end = band.to === null ? 'now (still open)' : formatUtc(band.to);
    out.push(
      `  Anything that failed between ${c.bold(formatUtc(band.from))} and ${c.bold(end)} may need a replay (${length}) — ${band.providers.map(name).join(', ')}`,
    );
    out.push(...runLines(band, c, name));
  }
  return `${out.join('\n')}\n`;
}

/** One line per job that ran inside the band: name, where it is declared, its schedule, when it ran, what it uses. */
function runLines(band: ReplayBand, c: ChalkInstance, name: (id: string) => string): string[] {
  const runs = band.runs ?? [];
  if (runs.length === 0) return [];
  const label = (text: string) => cleanLine(text, 40);
  const where = (file: string, line?: number) => cleanLine(`${file}${line ? `:${line}` : ''}`, 80);
  const nameWidth = Math.max(...runs.map((entry) => label(entry.job).length));
  const whereWidth = Math.max(...runs.map((entry) => where(entry.file, entry.line).length));
  const lines = [c.dim(`    Scheduled jobs that ran in this window (${runs.length}):`)];
  for (const entry of runs) {
    const reach = reachLabel(entry, band, name);
    lines.push(
      `    ${c.bold(label(entry.job).padEnd(nameWidth))}  ${where(entry.file, entry.line).padEnd(whereWidth)}  ${cleanLine(scheduleLabel(entry), 80)}  ${ranLabel(entry, band)}${reach ? c.dim(`  · ${reach}`) : ''}`,
    );
    for (const note of entry.notes) lines.push(c.dim(`      ${cleanLine(note, 200)}`));
  }
  return lines;
}

function renderFinding(finding: Finding, c: ChalkInstance, name: (id: string) => string, now: Date): string[] {
  const incident = finding.incident;
  const state = finding.active ? c.red.bold('ACTIVE  ') : c.green('resolved');
  const possibly =
    finding.confidence === 'possibly'
      ? c.yellow(' · possibly: the incident is regional and your region is unknown')
      : '';
  const through = finding.through ? c.dim(` (you use it through ${name(finding.through)})`) : '';
  const components =
    finding.components.length === 0
      ? 'the whole provider'
      : finding.components.length > 4
        ? `${finding.components.slice(0, 4).join(', ')} and ${finding.components.length - 4} more`
        : finding.components.join(', ');
  const length = formatDuration(windowMs(finding.replay, now));
  const lines = [
    `  ${state}  ${c.bold(name(finding.provider))} · ${cleanLine(incident.title, 100)}${through}`,
    `            touched: ${components}${incident.regions.length ? ` in ${incident.regions.join(', ')}` : ''} · impact ${incident.impact}${finding.devOnly ? ' · dev only' : ''}${possibly}`,
    `            replay ${formatRange(finding.replay.from, finding.replay.to)} (${length})`,
  ];
  if (incident.impactWindow)
    lines.push(
      c.dim(
        `            stated impact ${formatRange(incident.impactWindow.from, incident.impactWindow.to)} (${incident.impactWindow.source})`,
      ),
    );
  if (incident.url) lines.push(c.dim(`            ${cleanLine(incident.url, 200)}`));
  return lines;
}

function notInCatalogLines(names: string[], c: ChalkInstance): string[] {
  if (names.length === 0) return [];
  const shown = names.slice(0, 8).join(', ') + (names.length > 8 ? `, and ${names.length - 8} more` : '');
  return [
    c.yellow(`  Not in catalog, so not checked: ${shown}`),
    c.dim('  (they look like a vendor SDK or provider; see CONTRIBUTING.md to add one)'),
  ];
}

function componentSummary(exposure: Exposure): string {
  // One entry per component, with every region it is used in (the same bucket may be seen by host and by SDK).
  const regions = new Map<string, Array<string | undefined>>();
  for (const component of exposure.components)
    regions.set(component.name, [...(regions.get(component.name) ?? []), component.region]);
  const named = [...regions]
    .map(([name, list]) => {
      const known = list.filter((region): region is string => region !== undefined);
      if (known.length === 0) return name;
      return `${name} (${known.join(', ')}${known.length < list.length ? ', region unknown' : ''})`;
    })
    .join(', ');
  const where = exposure.wholeProviderRegions ? ` in ${exposure.wholeProviderRegions.join(', ')}` : '';
  const text = exposure.wholeProvider ? `all components${where}${named ? ` (notably ${named})` : ''}` : named;
  return text.length > 90 ? `${text.slice(0, 89)}…` : text;
}

function evidenceSummary(evidence: Dependency[]): string {
  // Show where the provider enters the stack: a package reached through another package of the same provider
  // (`@aws-sdk/core` under `@aws-sdk/client-s3`) is its plumbing. A Terraform provider requirement says least.
  const names = new Set(evidence.map((dependency) => dependency.name));
  const entries = evidence.filter((dependency) => !dependency.via.slice(0, -1).some((name) => names.has(name)));
  const ordered = [...entries].sort(
    (a, b) => Number(a.ecosystem === 'terraform-provider') - Number(b.ecosystem === 'terraform-provider'),
  );
  const seen = new Set<string>();
  const unique = ordered.filter((dependency) => !seen.has(dependency.name) && seen.add(dependency.name));
  const shown = unique.slice(0, 3).map((dependency) => {
    const chain =
      !dependency.direct && dependency.via.length > 2 ? ` via ${dependency.via.slice(1, -1).join(' › ')}` : '';
    return `${evidenceText(dependency)}${chain}`;
  });
  const rest = evidence.length - shown.length;
  return shown.join('; ') + (rest > 0 ? ` (+${rest} more: \`downstack explain\`)` : '');
}

function indexLine(report: CheckReport, now: Date): string {
  const { index } = report;
  const problems = index.problems.length
    ? ` · ${plural(index.problems.length, 'damaged index file')} ignored (see errors)`
    : '';
  if (index.synced > 0 && index.oldestSync)
    return `index: synced ${formatAgo(index.oldestSync, now)} (${index.dir})${problems}`;
  const upTo = index.newestSnapshotIncident ? ` up to ${index.newestSnapshotIncident.slice(0, 10)}` : '';
  return `index: embedded snapshot, ${plural(index.snapshotIncidents, 'incident')}${upTo} — run \`downstack sync\` for live data${problems}`;
}

/** Providers reached only through another one (runsOn), counted apart so the header matches the list. */
function upstreamCount(report: CheckReport): string {
  const direct = new Set(report.exposures.filter((exposure) => !exposure.through).map((exposure) => exposure.provider));
  const upstream = new Set(
    report.exposures
      .filter((exposure) => exposure.through && !direct.has(exposure.provider))
      .map((exposure) => exposure.provider),
  );
  return upstream.size > 0 ? ` (+${upstream.size} upstream)` : '';
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
