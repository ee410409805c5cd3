// Stated durations ("1h 39m", "lasting 1h 54m", "Time to repair: 6h 27m", "for roughly 2 hours"), in minutes.

export interface StatedDuration {
  minutes: number;
  /** "roughly", "about": compared with a wider tolerance. */
  approximate: boolean;
  written: string;
  index: number;
}

const APPROX = '(?:(?<approx>about|approximately|approx\\.|around|roughly|nearly|almost|over|under|~)[ \\t]+)?';
const COMPACT =
  '(?:(?<ch>\\d+)[ \\t]*h(?:rs?)?(?:[ \\t]*(?<cm>\\d+)[ \\t]*m(?:in)?)?|(?<cmo>\\d+)[ \\t]*m(?:in)?)(?![a-z])';
const WORDS =
  '(?:(?<wh>\\d+|an?|one|two|three)[ \\t]+hours?(?:[ \\t]+(?:and[ \\t]+)?(?<wm>\\d+)[ \\t]+min(?:ute)?s?)?|(?<wmo>\\d+)[ \\t]+min(?:ute)?s?)\\b';
// A compact "1h 39m" is a duration wherever it stands; words ("2 hours") only after a cue, since prose is full of them.
const CUED = new RegExp(
  `\\b(?:lasting|lasted|lasts|took|duration:?|time to (?:repair|resolve|recover|mitigate|restore):?|for|after the)[ \\t]+${APPROX}(?:${COMPACT}|${WORDS})`,
  'gi',
);
const BARE_COMPACT = /(?<![\w.:-])(?<ch>\d+)h[ \t]*(?:(?<cm>\d+)m)?(?![\w])/g;
const NUMBER_WORDS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3 };

export function extractDurations(text: string): StatedDuration[] {
  const found: StatedDuration[] = [];
  for (const match of text.matchAll(CUED)) {
    const g = match.groups ?? {};
    const hours = g.ch ?? g.wh;
    const minutes =
      Number(g.cm ?? g.cmo ?? g.wm ?? g.wmo ?? 0) +
      (hours ? (NUMBER_WORDS[hours.toLowerCase()] ?? Number(hours)) * 60 : 0);
    if (minutes > 0)
      found.push({ minutes, approximate: g.approx !== undefined, written: match[0].trim(), index: match.index ?? 0 });
  }
  for (const match of text.matchAll(BARE_COMPACT)) {
    const index = match.index ?? 0;
    if (found.some((known) => index >= known.index && index < known.index + known.written.length + 2)) continue;
    const minutes = Number(match.groups?.ch) * 60 + Number(match.groups?.cm ?? 0);
    if (minutes > 0) found.push({ minutes, approximate: false, written: match[0].trim(), index });
  }
  return found.sort((a, b) => a.index - b.index);
}

/** `31m`, `1h 39m`, `6h 27m`, as incidentlib records write them (`timeline.resolved_after`). */
export function parseCompactDuration(value: string): number | undefined {
  const match = /^\s*(?:(\d+)\s*d)?\s*(?:(\d+)\s*h)?\s*(?:(\d+)\s*m(?:in)?)?\s*$/i.exec(value);
  if (!match || (!match[1] && !match[2] && !match[3])) return undefined;
  return Number(match[1] ?? 0) * 1440 + Number(match[2] ?? 0) * 60 + Number(match[3] ?? 0);
}
