// The terminal report: providers → why → incidents → what to replay, readable in five seconds.
import type { CheckReport } from '../check.js';
import type { Dependency, Exposure, Finding, ReplayBand } from '../model.js';
import { windowMs } from '../replay.js';
import { cleanLine, joinText, paint, type SafeText, text } from '../sanitize.js';
import { dnsChainText, where } from './locate.js';
import { type PathDisplay, pathDisplay } from './display-path.js';
import { publishedHeader } from './published-note.js';
import { componentPhrase, leadNote, uniquePackages } from './shared.js';
import { formatAgo, formatDuration, formatRange, formatUtc } from '../time.js';
import { type ChainLink, chainLength, reachedThrough } from '../via-chain.js';
import { type ReachSetting, reachOf, withinReach } from '../reach.js';
import { ranLabel, reachLabel, scheduleLabel } from './job-runs.js';

type Style = (value: string) => string;
/** The styles the table uses: chalk's when colour is on (render.ts loads it then), none otherwise. */
export interface Painter {
  bold: Style;
  dim: Style;
  green: Style;
  yellow: Style;
  red: Style & { bold: Style };
}

const unstyled: Style = (value) => value;
/** No colour: CI logs, pipes and NO_COLOR, where loading chalk would cost start-up for nothing. */
export const PLAIN: Painter = {
  bold: unstyled,
  dim: unstyled,
  green: unstyled,
  yellow: unstyled,
  red: Object.assign((value: string) => value, { bold: unstyled }),
};

export interface TableOptions {
  /** PLAIN when left out. */
  painter?: Painter;
  now: Date;
  /** At most this many incidents and replay windows, newest first, open ones always; 0: every one. */
  limit?: number;
}

/** Every line is SafeText: values are cleaned where they are put in, and only our own colour reaches the terminal. */
export function renderTable(report: CheckReport, options: TableOptions): SafeText {
  const c = options.painter ?? PLAIN;
  const name = (id: string) => cleanLine(report.catalog.providers.get(id)?.name ?? id, 60);
  const out: SafeText[] = [];
  const paths = pathDisplay(report.root);
  const packages = uniquePackages(report);
  // Providers the reach setting counts are listed as always; the others apart, one line each.
  const counted = report.exposures.filter((exposure) => withinReach(exposure.reach, report.reach));
  const outside = report.exposures.filter((exposure) => !withinReach(exposure.reach, report.reach));
  const direct = counted.filter((exposure) => !exposure.through);

  out.push(
    text`${paint(c.bold, 'downstack')}  ${plural(direct.length, 'provider')}${upstreamCount(counted)} from ${plural(report.inputs.length, 'input')}${paths.root ? text` in ${cleanLine(paths.root, 120)}` : ''} (${plural(packages, 'dependency', 'dependencies')})${outsideCount(outside)}  ·  window ${formatUtc(report.window.since)} → ${formatUtc(report.window.until)}`,
  );
  out.push(paint(c.dim, indexLine(report, options.now)));
  for (const line of workspaceRootLines(report, paths)) out.push(paint(c.dim, line));
  out.push(text``);

  if (report.exposures.length === 0) {
    out.push(text`No dependency maps to a provider in the catalog, so no incident can touch this stack.`);
    out.push(...notInCatalogLines(report.notInCatalog, c));
    out.push(
      paint(
        c.dim,
        text`If you use a SaaS that is missing, add it: see CONTRIBUTING.md (\`downstack providers\` lists what is known).`,
      ),
    );
    return lines(out);
  }

  out.push(paint(c.bold, 'Providers'));
  if (counted.length === 0)
    out.push(paint(c.dim, text`  none ${reachPhrase(report.reach)} (see below; --reach all counts them all)`));
  // Names up to NAME_COLUMN characters set the column; a longer one takes a line of its own, so none runs into its
  // components.
  const longest = Math.max(...counted.map((exposure) => name(exposure.provider).length), 0);
  const width = Math.min(NAME_COLUMN, longest) + 2;
  const indent = ' '.repeat(width);
  // Evidence names its workspace only when the stack has several: one scanned workspace is the reader's context.
  const named =
    new Set(counted.flatMap((exposure) => exposure.evidence.map((dependency) => dependency.workspace))).size > 1;
  for (const exposure of counted) {
    const label = name(exposure.provider);
    const components = text`${cleanLine(componentPhrase(exposure, COMPONENT_BUDGET), COMPONENT_BUDGET * 2)}`;
    const dev = exposure.devOnly ? paint(c.dim, ' (dev only)') : '';
    if (label.length > NAME_COLUMN) out.push(text`  ${paint(c.bold, label)}`, text`  ${indent}${components}${dev}`);
    else out.push(text`  ${paint(c.bold, label.padEnd(width))}${components}${dev}`);
    const why = exposure.through
      ? [{ text: text`runs under ${name(exposure.through)}` }]
      : evidenceLines(exposure.evidence, paths, exposure.provider, named);
    for (const [index, line] of why.entries())
      out.push(
        text`  ${indent}${paint(c.dim, index === 0 || !line.more ? text`← ${line.text}` : text`  ${line.text}`)}`,
      );
  }
  out.push(...outsideLines(outside, report, c, name));
  out.push(...ownLines(report, c, name));
  out.push(...notInCatalogLines(report.notInCatalog, c));
  out.push(text``);
  if (report.beyondReach.length > 0)
    out.push(
      paint(
        c.dim,
        text`${plural(report.beyondReach.length, 'incident')} of the providers above ${report.beyondReach.length === 1 ? 'is' : 'are'} left out: they reach this stack only ${outsidePhrase(report.reach)} (--reach transitive or all counts them).`,
      ),
      text``,
    );

  if (report.findings.length === 0) {
    out.push(
      paint(
        c.green,
        text`No incident between ${formatUtc(report.window.since)} and ${formatUtc(report.window.until)} touched the components this stack uses.`,
      ),
    );
    if (report.recent.length > 0) {
      out.push(
        paint(c.dim, 'Most recent incidents of these providers, for context (outside the window or other components):'),
      );
      for (const incident of report.recent) {
        out.push(
          paint(
            c.dim,
            text`  ${formatUtc(incident.startedAt)}  ${name(incident.provider)}: ${cleanLine(incident.title, 90)}`,
          ),
        );
      }
    }
    return lines(out);
  }

  const findings = newest(report.findings, options.limit ?? 0, (finding) => finding.active);
  const hiddenFindings = report.findings.length - findings.length;
  out.push(
    paint(
      c.bold,
      `Incidents that touched this stack (${report.findings.length}${hiddenFindings > 0 ? `, the ${findings.length} newest shown` : ''})`,
    ),
  );
  for (const finding of findings) out.push(...renderFinding(finding, c, name, options.now), text``);
  if (hiddenFindings > 0) {
    out.push(paint(c.dim, text`  … and ${plural(hiddenFindings, 'older incident')} in this window: ${MORE}`), text``);
  }

  // Bands run oldest first; a long window keeps its newest ones (and any still open), the rest counted up front.
  const bands = newest([...report.replay].reverse(), options.limit ?? 0, (band) => band.to === null).reverse();
  const hiddenBands = report.replay.length - bands.length;
  out.push(paint(c.bold, 'What to replay'));
  if (hiddenBands > 0) {
    out.push(paint(c.dim, text`  ${plural(hiddenBands, 'earlier window')} not shown: ${MORE}`));
  }
  for (const band of bands) {
    const length = formatDuration(windowMs(band, options.now));
    const end = band.to === null ? 'now (still open)' : formatUtc(band.to);
    out.push(
      text`  Anything that failed between ${paint(c.bold, formatUtc(band.from))} and ${paint(c.bold, end)} may need a replay (${length}) — ${band.providers.map(name).join(', ')}`,
    );
    out.push(...runLines(band, c, name, paths));
  }
  return lines(out);
}

/** Provider names longer than this get a line of their own. */
const NAME_COLUMN = 22;
/** Characters the component list of a provider may take before the rest is counted. */
const COMPONENT_BUDGET = 100;
/** Places (a workspace of a lockfile, a file) and packages per place the evidence lines show. */
const EVIDENCE_PLACES = 2;
const EVIDENCE_NAMES = 3;
/** Characters an evidence line may take before its other packages are counted. */
const EVIDENCE_WIDTH = 110;

const MORE = 'see them all with --limit 0 or --format json, or narrow the window with --since/--until';

/** Every item that must always show, then the first of the others up to `limit` in all, in their order; 0: all. */
function newest<T>(items: readonly T[], limit: number, always: (item: T) => boolean): T[] {
  if (limit <= 0 || items.length <= limit) return [...items];
  const pinned = items.filter(always);
  const kept = new Set([
    ...pinned,
    ...items.filter((item) => !always(item)).slice(0, Math.max(0, limit - pinned.length)),
  ]);
  return items.filter((item) => kept.has(item));
}

/** One line per job that ran inside the band: name, where it is declared, its schedule, when it ran, what it uses. */
function runLines(band: ReplayBand, c: Painter, name: (id: string) => string, paths: PathDisplay): SafeText[] {
  const runs = band.runs ?? [];
  if (runs.length === 0) return [];
  const label = (value: string) => cleanLine(value, 40);
  const where = (file: string, line?: number) => cleanLine(`${paths.show(file)}${line ? `:${line}` : ''}`, 80);
  const nameWidth = Math.max(...runs.map((entry) => label(entry.job).length));
  const whereWidth = Math.max(...runs.map((entry) => where(entry.file, entry.line).length));
  const out = [paint(c.dim, `    Scheduled jobs that ran in this window (${runs.length}):`)];
  for (const entry of runs) {
    const reach = reachLabel(entry, band, name);
    out.push(
      text`    ${paint(c.bold, label(entry.job).padEnd(nameWidth))}  ${where(entry.file, entry.line).padEnd(whereWidth)}  ${cleanLine(scheduleLabel(entry), 80)}  ${ranLabel(entry, band)}${reach ? paint(c.dim, text`  · ${reach}`) : ''}`,
    );
    for (const note of entry.notes) out.push(paint(c.dim, text`      ${cleanLine(note, 200)}`));
  }
  return out;
}

/** The report's lines, each ending in a line break. */
function lines(out: SafeText[]): SafeText {
  return text`${joinText(out)}\n`;
}

function renderFinding(finding: Finding, c: Painter, name: (id: string) => string, now: Date): SafeText[] {
  const incident = finding.incident;
  const state = finding.active ? paint(c.red.bold, 'ACTIVE  ') : paint(c.green, 'resolved');
  const possibly =
    finding.confidence === 'possibly'
      ? paint(c.yellow, ' · possibly: the incident is regional and your region is unknown')
      : '';
  const through = finding.through ? paint(c.dim, text` (you use it through ${name(finding.through)})`) : '';
  const components =
    finding.components.length === 0
      ? text`the whole provider`
      : finding.components.length > 4
        ? text`${list(finding.components.slice(0, 4))} and ${finding.components.length - 4} more`
        : list(finding.components);
  const length = formatDuration(windowMs(finding.replay, now));
  const regions = incident.regions.length ? text` in ${list(incident.regions)}` : '';
  const out = [
    text`  ${state}  ${paint(c.bold, name(finding.provider))} · ${cleanLine(incident.title, 100)}${through}`,
    text`            touched: ${components}${regions} · impact ${incident.impact}${finding.devOnly ? ' · dev only' : ''}${possibly}`,
    text`            replay ${formatRange(finding.replay.from, finding.replay.to)} (${length})`,
  ];
  const lead = leadNote(finding.replay);
  if (lead) out.push(paint(c.dim, text`            ${lead}`));
  if (incident.impactWindow)
    out.push(
      paint(
        c.dim,
        text`            stated impact ${formatRange(incident.impactWindow.from, incident.impactWindow.to)} (${cleanLine(incident.impactWindow.source, 200)})`,
      ),
    );
  if (incident.url) out.push(paint(c.dim, text`            ${cleanLine(incident.url, 200)}`));
  return out;
}

/** Names from outside, each cleaned on its own, joined with commas. */
function list(names: readonly string[]): SafeText {
  return joinText(
    names.map((entry) => text`${cleanLine(entry, 120)}`),
    text`, `,
  );
}

/** Vendors whose own repository this is: said once, so a provider that vanished from the list is not a mystery. */
function ownLines(report: CheckReport, c: Painter, name: (id: string) => string): SafeText[] {
  return report.ownProviders.map((entry) =>
    paint(
      c.dim,
      text`  Left out: ${name(entry.provider)} — this is its own repository (${cleanLine(entry.workspace, 80)} shares its scope ${cleanLine(entry.scope, 40)}), so its status is not a dependency's`,
    ),
  );
}

function notInCatalogLines(names: string[], c: Painter): SafeText[] {
  if (names.length === 0) return [];
  const more = names.length > 8 ? text`, and ${names.length - 8} more` : '';
  return [
    paint(c.yellow, text`  Not in catalog, so not checked: ${list(names.slice(0, 8))}${more}`),
    paint(c.dim, '  (they look like a vendor SDK or provider; see CONTRIBUTING.md to add one)'),
  ];
}

interface EvidenceLine {
  text: SafeText;
  /** The closing count of what the lines before it leave out. */
  more?: boolean;
}

/**
 * Where the provider enters the stack, one line per place: a workspace of a lockfile (`web: pnpm-lock.yaml:120
 * @upstash/redis, :126 @upstash/qstash`) or a file, at most EVIDENCE_PLACES of them with as many of their first
 * EVIDENCE_NAMES packages as fit EVIDENCE_WIDTH, then one count of the packages and places left out, each package
 * counted once. A package reached through another package of the same provider (`@aws-sdk/core` under
 * `@aws-sdk/client-s3`) is its plumbing and is not listed; a Terraform provider requirement, which says least, comes
 * last.
 */
function evidenceLines(
  evidence: Dependency[],
  paths: PathDisplay,
  provider: string,
  namedWorkspaces: boolean,
): EvidenceLine[] {
  const names = new Set(evidence.map((dependency) => dependency.name));
  const memo = new Map<ChainLink, boolean>();
  const entries = evidence.filter((dependency) => !reachedThrough(dependency, names, memo));
  // In a stable order whatever order the evidence was found in (DNS answers arrive in any order): by file, the
  // stack's own declarations first, then by line.
  const ordered = [...entries].sort(
    (a, b) =>
      Number(a.ecosystem === 'terraform-provider') - Number(b.ecosystem === 'terraform-provider') ||
      compareText(a.file, b.file) ||
      Number(!a.direct) - Number(!b.direct) ||
      compareText(a.workspace ?? '', b.workspace ?? '') ||
      (a.line ?? 0) - (b.line ?? 0) ||
      compareText(a.name, b.name),
  );
  const places = new Map<string, { workspace?: string; file: string; packages: Map<string, Dependency> }>();
  for (const dependency of ordered) {
    const key = `${dependency.workspace ?? ''}\u0000${dependency.file}`;
    let place = places.get(key);
    if (!place) {
      place = { workspace: dependency.workspace, file: dependency.file, packages: new Map() };
      places.set(key, place);
    }
    if (!place.packages.has(dependency.name)) place.packages.set(dependency.name, dependency);
  }
  // A package listed (or counted) once is not listed again (a manifest and its lockfile, two workspaces): a place
  // adding no new package is skipped, and the closing count counts each package the lines leave out once.
  const listed = new Set<string>();
  const lines: EvidenceLine[] = [];
  const skipped = new Set<string>();
  let placesLeft = 0;
  for (const place of places.values()) {
    const fresh = [...place.packages.values()].filter((dependency) => !listed.has(dependency.name));
    if (fresh.length === 0) continue;
    if (lines.length === EVIDENCE_PLACES) {
      placesLeft++;
      for (const dependency of fresh) skipped.add(dependency.name);
      continue;
    }
    const entries = fresh.slice(0, EVIDENCE_NAMES).map((dependency, index) => {
      const at = index === 0 ? where(dependency, paths.show) : dependency.line ? `:${dependency.line}` : '';
      const chain =
        !dependency.direct && chainLength(dependency) > 2 ? text` via ${steps(dependency.via.slice(1, -1))}` : '';
      const dns = dependency.dns ? ` ${dnsChainText(dependency.dns)}` : '';
      return text`${cleanLine(at, 200)}${at ? ' ' : ''}${cleanLine(shortDigest(dependency.name), 120)}${dns}${chain}`;
    });
    const workspace = namedWorkspaces && place.workspace ? text`${cleanLine(place.workspace, 60)}: ` : '';
    // Packages while the line fits EVIDENCE_WIDTH (one at least); the rest of the place counted.
    let width = workspace === '' ? 0 : workspace.text.length;
    let count = 0;
    for (const entry of entries) {
      if (count > 0 && width + 2 + entry.text.length + ' , +N more'.length > EVIDENCE_WIDTH) break;
      width += (count > 0 ? 2 : 0) + entry.text.length;
      count++;
    }
    // What a line lists or counts is not listed again.
    for (const dependency of fresh) listed.add(dependency.name);
    const rest = fresh.length - count;
    lines.push({
      text: text`${workspace}${joinText(entries.slice(0, count), text`, `)}${rest > 0 ? text`, +${rest} more` : ''}`,
    });
  }
  for (const name of listed) skipped.delete(name);
  if (placesLeft > 0)
    lines.push({
      text: text`… and ${skipped.size} more in ${plural(placesLeft, 'more place')}: \`downstack explain ${cleanLine(provider, 60)}\``,
      more: true,
    });
  return lines;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** An image pinned by digest keeps the digest's first 12 hex digits, as `docker images` shows an id. */
function shortDigest(name: string): string {
  return name.replace(/@sha256:([0-9a-f]{12})[0-9a-f]{52}\b/i, '@sha256:$1…');
}

/** The steps between the root and a package; a chain too long to read keeps its two ends. */
function steps(via: string[]): SafeText {
  const shown = via.length > 8 ? [...via.slice(0, 3), `… ${via.length - 6} more …`, ...via.slice(-3)] : via;
  return joinText(
    shown.map((step) => text`${cleanLine(step, 120)}`),
    text` › `,
  );
}

/** A lockfile read from the workspace root above the scanned folder says so, and which workspaces it was read for. */
function workspaceRootLines(report: CheckReport, paths: PathDisplay): SafeText[] {
  return report.inputs.flatMap((input) => {
    const root = input.workspaceRoot;
    if (!root || root.workspaces.length === 0) return [];
    const shown = root.workspaces.slice(0, 4).map((dir) => cleanLine(dir, 80));
    const more = root.workspaces.length > 4 ? `, +${root.workspaces.length - 4} more` : '';
    return [
      text`${root.workspaces.length === 1 ? 'workspace' : 'workspaces'} ${shown.join(', ')}${more} of ${cleanLine(paths.show(root.declaredIn), 200)}: packages read from the root lockfile ${cleanLine(paths.show(input.file), 200)} (above the scanned folder; read only)`,
    ];
  });
}

function indexLine(report: CheckReport, now: Date): SafeText {
  const { index } = report;
  const problems = index.problems.length
    ? ` · ${plural(index.problems.length, 'damaged index file')} ignored (see errors)`
    : '';
  const history = index.historySpan
    ? ` · bundled history ${plural(index.historyIncidents, 'incident')} ${index.historySpan.from.slice(0, 4)}–${index.historySpan.to.slice(0, 4)}`
    : '';
  if (index.published) return text`${publishedHeader(index.published, now)}${history}${problems}`;
  if (index.synced > 0 && index.oldestSync)
    return text`index: synced ${formatAgo(index.oldestSync, now)} (${index.dir})${history}${problems}`;
  const upTo = index.newestSnapshotIncident ? ` up to ${index.newestSnapshotIncident.slice(0, 10)}` : '';
  return text`index: embedded snapshot, ${plural(index.snapshotIncidents, 'incident')}${upTo}${history} — run \`downstack sync\` for live data${problems}`;
}

/** Providers reached only through another one (runsOn), counted apart so the header matches the list. */
function upstreamCount(exposures: Exposure[]): string {
  const direct = new Set(exposures.filter((exposure) => !exposure.through).map((exposure) => exposure.provider));
  const upstream = new Set(
    exposures
      .filter((exposure) => exposure.through && !direct.has(exposure.provider))
      .map((exposure) => exposure.provider),
  );
  return upstream.size > 0 ? ` (+${upstream.size} upstream)` : '';
}

function outsideCount(outside: Exposure[]): string {
  const providers = new Set(outside.map((exposure) => exposure.provider));
  return providers.size > 0 ? `  ·  +${providers.size} only through libraries or dev tools` : '';
}

function reachPhrase(setting: ReachSetting): string {
  return setting === 'direct' ? 'declared by this repository' : 'declared by it or reached through its libraries';
}

function outsidePhrase(setting: ReachSetting): string {
  return setting === 'direct'
    ? 'through libraries, optional or dev dependencies'
    : 'through optional or dev dependencies';
}

/**
 * Providers the reach setting leaves out, one line each with the library path that brings them (the best-reached
 * piece of evidence): they are in the dependency tree, but no incident of theirs is replayed or gated on.
 */
function outsideLines(outside: Exposure[], report: CheckReport, c: Painter, name: (id: string) => string): SafeText[] {
  const out: SafeText[] = [];
  const libraries = outside.filter((exposure) => exposure.reach !== 'dev');
  const dev = outside.filter((exposure) => exposure.reach === 'dev');
  const line = (exposure: Exposure) => {
    const why = exposure.through ? text`runs under ${name(exposure.through)}` : libraryPath(exposure);
    const optional = exposure.reach === 'optional' ? paint(c.dim, ' (optional)') : '';
    return text`  ${cleanLine(name(exposure.provider), 40)}${optional} — ${why}`;
  };
  if (libraries.length > 0) {
    out.push(text``, paint(c.bold, 'Also in the dependency tree, through libraries'));
    out.push(...libraries.map(line));
  }
  if (dev.length > 0) {
    out.push(text``, paint(c.bold, 'Dev only'));
    out.push(...dev.map(line));
  }
  if (out.length > 0 && report.reach !== 'all')
    out.push(
      paint(
        c.dim,
        text`  (not counted for incidents, replay or --fail-on; --reach ${report.reach === 'direct' ? 'transitive or all' : 'all'} counts them)`,
      ),
    );
  return out;
}

/** `@azure/identity via @boxyhq/saml-jackson › mssql › tedious`: the package and the libraries that bring it. */
function libraryPath(exposure: Exposure): SafeText {
  const best = exposure.evidence.find((dependency) => reachOf(dependency) === exposure.reach) ?? exposure.evidence[0];
  if (!best) return text``;
  const chain = chainLength(best) > 2 ? text` via ${steps(best.via.slice(1, -1))}` : '';
  return text`${cleanLine(best.name, 120)}${chain}`;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
