// The timeline picture for the HTML report: one row per provider/component, one band per finding, and the
// merged replay windows, drawn as inline SVG across the checked window (no script, no external resource).
import type { CheckReport } from '../check.js';
import type { Finding } from '../model.js';
import { cleanLine } from '../sanitize.js';
import { formatUtc } from '../time.js';
import { providerName, replayLabel, touchedLabel } from './shared.js';
import { escapeXml as x } from './xml.js';

const WIDTH = 1000;
const LABEL_WIDTH = 250;
const RIGHT_PAD = 44;
const TOP = 8;
const ROW = 30;
const BAND = 18;
const AXIS = 40;
/** Bands shorter than this many pixels are widened, so a ten-minute blip in a 90-day window still shows. */
const MIN_BAND = 4;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const TICK_STEPS = [HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 7 * DAY, 14 * DAY, 30 * DAY, 91 * DAY];

interface Row {
  label: string;
  findings: Finding[];
}

export function renderTimeline(report: CheckReport, now: Date): string {
  const since = Date.parse(report.window.since);
  const until = Math.max(Date.parse(report.window.until), since + 60_000);
  const plot = WIDTH - LABEL_WIDTH - RIGHT_PAD;
  const xOf = (time: number) =>
    LABEL_WIDTH + ((Math.min(Math.max(time, since), until) - since) / (until - since)) * plot;
  const endOf = (to: string | null) => (to === null ? Math.min(now.getTime(), until) : Date.parse(to));
  const span = (from: string, to: string | null) => {
    const left = xOf(Date.parse(from));
    const right = Math.max(xOf(endOf(to)), left + MIN_BAND);
    return { left, width: Math.min(right, LABEL_WIDTH + plot) - left };
  };

  const rows = timelineRows(report);
  const replayTop = TOP + rows.length * ROW;
  const jobs = jobRows(report);
  // The axis sits under the replay row and one row per scheduled job that ran in a window.
  const bottom = replayTop + ROW + jobs.length * ROW;
  const height = bottom + AXIS;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="timeline" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-labelledby="timeline-title">`,
    `<title id="timeline-title">Incidents per provider and component from ${x(formatUtc(report.window.since))} to ${x(formatUtc(report.window.until))}, with the merged replay windows</title>`,
    `<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" class="hatch-bg"/><line x1="0" y1="0" x2="0" y2="6" class="hatch-line"/></pattern></defs>`,
  );

  // Layers, back to front: row backgrounds, replay shading and grid, then bands and their labels.
  for (let index = 0; index < rows.length; index++) {
    out.push(
      `<rect class="row-bg${index % 2 ? ' odd' : ''}" x="0" y="${TOP + index * ROW}" width="${WIDTH}" height="${ROW}"/>`,
    );
  }
  out.push(`<rect class="row-bg replay" x="0" y="${replayTop}" width="${WIDTH}" height="${ROW}"/>`);
  for (let index = 0; index < jobs.length; index++)
    out.push(
      `<rect class="row-bg${index % 2 ? '' : ' odd'}" x="0" y="${replayTop + ROW * (index + 1)}" width="${WIDTH}" height="${ROW}"/>`,
    );
  for (const band of report.replay) {
    const { left, width } = span(band.from, band.to);
    out.push(`<rect class="replay-shade" x="${n(left)}" y="${TOP}" width="${n(width)}" height="${bottom - TOP}"/>`);
  }
  for (const tick of ticks(since, until)) {
    const at = xOf(tick.time);
    out.push(`<line class="grid" x1="${n(at)}" y1="${TOP}" x2="${n(at)}" y2="${bottom}"/>`);
    out.push(`<text class="tick" x="${n(at)}" y="${bottom + 16}" text-anchor="middle">${x(tick.label)}</text>`);
  }
  // The report's own time: open incidents and replay windows end here.
  const nowTime = now.getTime();
  if (nowTime > since && nowTime < until) {
    const at = xOf(nowTime);
    out.push(`<line class="now" x1="${n(at)}" y1="${TOP}" x2="${n(at)}" y2="${bottom}"/>`);
    out.push(
      `<text class="tick now-label" x="${n(at)}" y="${bottom + 32}" text-anchor="middle">report time ${x(formatUtc(now.toISOString()))}</text>`,
    );
  }

  const plotEnd = LABEL_WIDTH + plot;
  // Past two days, a bare time no longer says which day it is.
  const withDate = until - since > 2 * DAY;
  rows.forEach((row, index) => {
    const y = TOP + index * ROW;
    out.push(
      '<g class="row">',
      `<text class="row-label" x="8" y="${y + ROW / 2 + 5}">${x(truncate(row.label, 36))}<title>${x(row.label)}</title></text>`,
    );
    const spans = row.findings.map((finding) => span(finding.replay.from, finding.replay.to));
    row.findings.forEach((finding, i) => {
      const { left, width } = spans[i] as { left: number; width: number };
      const state = finding.active ? 'active' : 'resolved';
      const classes = [
        'band',
        state,
        finding.confidence === 'possibly' ? 'possibly' : '',
        finding.replay.to === null ? 'open' : '',
      ]
        .filter(Boolean)
        .join(' ');
      const tip = `${providerName(report, finding.provider)}: ${cleanLine(finding.incident.title, 160)} — ${touchedLabel(finding)} — ${replayLabel(finding, now)}${finding.active ? ' — still open' : ''}`;
      out.push(
        `<g class="finding-band" data-provider="${x(finding.provider)}" data-incident="${x(finding.incident.id)}" data-state="${state}">` +
          `<rect class="${classes}" x="${n(left)}" y="${y + (ROW - BAND) / 2}" width="${n(width)}" height="${BAND}" rx="3"><title>${x(tip)}</title></rect></g>`,
      );
    });
    out.push(
      ...bandLabels(
        row.findings.map((finding) => shortRange(finding.replay.from, finding.replay.to, withDate)),
        spans,
        y,
        plotEnd,
      ),
      '</g>',
    );
  });

  out.push(
    '<g class="row replay-row">',
    `<text class="row-label strong" x="8" y="${replayTop + ROW / 2 + 5}">Replay windows</text>`,
  );
  const replaySpans = report.replay.map((band) => span(band.from, band.to));
  report.replay.forEach((band, i) => {
    const { left, width } = replaySpans[i] as { left: number; width: number };
    const tip = `Replay ${formatUtc(band.from)} → ${band.to === null ? 'now (still open)' : formatUtc(band.to)}: ${band.providers.map((id) => providerName(report, id)).join(', ')}`;
    out.push(
      `<rect class="replay-band${band.to === null ? ' open' : ''}" x="${n(left)}" y="${replayTop + (ROW - BAND) / 2}" width="${n(width)}" height="${BAND}" rx="3"><title>${x(tip)}</title></rect>`,
    );
  });
  out.push(
    ...bandLabels(
      report.replay.map((band) => shortRange(band.from, band.to, withDate)),
      replaySpans,
      replayTop,
      plotEnd,
    ),
    '</g>',
  );
  for (const [index, job] of jobs.entries()) out.push(...jobRow(job, xOf, replayTop + ROW * (index + 1)));
  out.push(`<line class="axis" x1="${LABEL_WIDTH}" y1="${bottom}" x2="${LABEL_WIDTH + plot}" y2="${bottom}"/>`);
  out.push('</svg>');
  return out.join('\n');
}

/** Rows for scheduled jobs: the first few that ran in a window (the report lists them all). */
const JOB_ROWS = 8;
/** Runs closer than this many pixels merge into one stretch, so a minutely job reads as a bar, not a smear of lines. */
const MERGE_PX = 3;

interface JobRow {
  label: string;
  times: string[];
  /** Runs whose times are not known (an interval without a start): the row says so instead of marking them. */
  every?: string;
}

/** One row per job that ran in some replay window, in the order the windows list them; runs of all windows together. */
function jobRows(report: CheckReport): JobRow[] {
  const rows = new Map<string, JobRow>();
  for (const band of report.replay)
    for (const runs of band.runs ?? []) {
      const key = `${runs.file}\u0000${runs.line}\u0000${runs.schedule}`;
      const row = rows.get(key) ?? { label: runs.job, times: [], ...(runs.every ? { every: runs.every } : {}) };
      row.times.push(...runs.at);
      rows.set(key, row);
    }
  return [...rows.values()].slice(0, JOB_ROWS);
}

/** A job's row: a stroke at each run, runs that crowd together drawn as one stretch, each titled with its times. */
function jobRow(row: JobRow, xOf: (time: number) => number, top: number): string[] {
  const label = cleanLine(row.label, 120);
  const out = [
    '<g class="row job-row">',
    `<text class="row-label" x="8" y="${top + ROW / 2 + 5}">${x(truncate(label, 36))}<title>${x(label)}</title></text>`,
  ];
  if (row.every !== undefined && row.times.length === 0)
    out.push(
      `<text class="band-label" x="${LABEL_WIDTH + 4}" y="${top + ROW / 2 + 4}">every ${x(row.every)}, times not known</text>`,
    );
  const stretches: Array<{ from: number; to: number; first: string; last: string; count: number }> = [];
  for (const at of [...row.times].sort()) {
    const position = xOf(Date.parse(at));
    const last = stretches.at(-1);
    if (last && position - last.to <= MERGE_PX) {
      last.to = position;
      last.last = at;
      last.count++;
    } else stretches.push({ from: position, to: position, first: at, last: at, count: 1 });
  }
  for (const stretch of stretches) {
    const tip =
      stretch.count === 1
        ? `${label} ran ${formatUtc(stretch.first)}`
        : `${label} ran ${stretch.count} times, ${formatUtc(stretch.first)} → ${formatUtc(stretch.last)}`;
    out.push(
      stretch.count === 1
        ? `<line class="run" x1="${n(stretch.from)}" y1="${top + 6}" x2="${n(stretch.from)}" y2="${top + ROW - 6}"><title>${x(tip)}</title></line>`
        : `<rect class="run-stretch" x="${n(stretch.from - 1)}" y="${top + 9}" width="${n(stretch.to - stretch.from + 2)}" height="${ROW - 18}"><title>${x(tip)}</title></rect>`,
    );
  }
  out.push('</g>');
  return out;
}

/** One row per provider and set of touched components, in the order findings are listed (open ones first). */
function timelineRows(report: CheckReport): Row[] {
  const rows = new Map<string, Row>();
  for (const finding of report.findings) {
    const name =
      providerName(report, finding.provider) +
      (finding.through ? ` (via ${providerName(report, finding.through)})` : '');
    const label = `${name} · ${touchedLabel(finding)}`;
    const row = rows.get(label);
    if (row) row.findings.push(finding);
    else rows.set(label, { label, findings: [finding] });
  }
  return [...rows.values()];
}

/** UTC-aligned ticks, about six across the window, labelled by hour or by day depending on the step. */
function ticks(since: number, until: number): Array<{ time: number; label: string }> {
  const step = TICK_STEPS.find((candidate) => (until - since) / candidate <= 7);
  if (step === undefined) return yearTicks(since, until);
  const result: Array<{ time: number; label: string }> = [];
  for (let time = Math.ceil(since / step) * step; time <= until; time += step) {
    const iso = new Date(time).toISOString();
    result.push({ time, label: step < DAY ? `${iso.slice(5, 10)} ${iso.slice(11, 16)}` : iso.slice(0, 10) });
  }
  return result;
}

/** Windows of years: ticks on 1 January, every one, two, five… years, labelled by the year alone. */
function yearTicks(since: number, until: number): Array<{ time: number; label: string }> {
  const first = new Date(since).getUTCFullYear() + 1;
  const last = new Date(until).getUTCFullYear();
  const every = [1, 2, 5, 10, 20, 50].find((years) => (last - first + 1) / years <= 7) ?? 100;
  const result: Array<{ time: number; label: string }> = [];
  for (let year = Math.ceil(first / every) * every; year <= last; year += every)
    result.push({ time: Date.UTC(year, 0, 1), label: String(year) });
  return result;
}

/**
 * Times next to each band, so the picture reads on paper where there are no tooltips: right of the band,
 * else left of it, else left out when either side would cover another band or label in the row.
 */
function bandLabels(
  texts: string[],
  spans: Array<{ left: number; width: number }>,
  rowTop: number,
  plotEnd: number,
): string[] {
  const taken = spans.map(({ left, width }) => [left - 6, left + width + 6] as [number, number]);
  const free = (from: number, to: number) =>
    from >= LABEL_WIDTH && to <= plotEnd + RIGHT_PAD - 2 && taken.every(([a, b]) => to <= a || from >= b);
  const labels: string[] = [];
  texts.forEach((text, i) => {
    const { left, width } = spans[i] as { left: number; width: number };
    const size = text.length * 6.3;
    const right: [number, number] = [left + width + 8, left + width + 8 + size];
    const leftSide: [number, number] = [left - 8 - size, left - 8];
    const place = free(...right) ? right : free(...leftSide) ? leftSide : undefined;
    if (!place) return;
    taken.push(place);
    labels.push(`<text class="band-label" x="${n(place[0])}" y="${rowTop + ROW / 2 + 4}">${x(text)}</text>`);
  });
  return labels;
}

/** `19:39–20:47` within a day (`08-10 19:39–20:47` in a long window), `08-10 19:39–08-11 02:00` across days, `02:14 → open`. */
function shortRange(from: string, to: string | null, withDate: boolean): string {
  const day = withDate ? `${from.slice(5, 10)} ` : '';
  if (to === null) return `${day}${from.slice(11, 16)} → open`;
  if (from.slice(0, 10) === to.slice(0, 10)) return `${day}${from.slice(11, 16)}–${to.slice(11, 16)}`;
  return `${from.slice(5, 10)} ${from.slice(11, 16)}–${to.slice(5, 10)} ${to.slice(11, 16)}`;
}

function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

function n(value: number): string {
  return String(Math.round(value * 10) / 10);
}
