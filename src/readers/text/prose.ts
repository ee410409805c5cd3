// Reads what the times in free prose are about: an impact window, a status post, a fix being deployed, a replay hint.
import type { IncidentUpdate } from '../../model.js';
import type { WindowClaim } from '../draft.js';
import { statusFromText } from '../status.js';
import { extractDurations } from '../time/durations.js';
import {
  extractTimes,
  sentenceAt,
  sentenceBounds,
  type ExtractOptions,
  type TimeMention,
  type TimeProblem,
} from '../time/extract.js';

// Cues, nearest to the time wins. Actions are what the team did (preparing, deploying), not when impact began or ended.
const CUES: Array<[RegExp, 'start' | 'end' | 'action' | 'post']> = [
  [
    /\b(?:began|started)[ \t]+(?:to[ \t]+(?!fail|erro|tim|return|drop|reject|refus|queu|degrad|los|serv|affect)[a-z]+|(?!fail|erro|tim|return|drop|reject|refus|queu|degrad|los|serv|affect)[a-z]+ing)\b/gi,
    'action',
  ],
  [
    /\b(?:prepar\w*|deploy\w*|hot ?fix\w*|placed|configur\w*|transferr\w*|tracing|rolled back|rolling back|escalat\w*)\b/gi,
    'action',
  ],
  [
    /\b(?:restored|recover(?:ed|y)|resolved|returned to normal|back to normal|fully (?:available|operational)|handled successfully|mitigated|ended|subsided|resumed|operational)\b/gi,
    'end',
  ],
  [
    /\b(?:began|begun|beginning|started|starting|(?:first )?appeared|first (?:detected|noticed|observed|reported)|detected|lost|went down|offline|unavailable|degrad\w*|spike|elevated|failing|failed|outage began)\b/gi,
    'start',
  ],
  [/\b(?:status page|posted|post(?:ed)? an update)\b|글|게시/gi, 'post'],
];
const REPLAY_CUE = /\breplay|\bmay need\b|\banything that failed\b/i;

export interface ProseReading {
  claims: WindowClaim[];
  /** Times the prose says the status page posted at ("the status page posted at 20:10 UTC that …"). */
  posts: IncidentUpdate[];
  mentions: TimeMention[];
  durations: ReturnType<typeof extractDurations>;
  notes: string[];
  problems: TimeProblem[];
}

export function readProse(
  text: string,
  options: ExtractOptions,
  skip: (mention: TimeMention) => boolean = () => false,
): ProseReading {
  const extraction = extractTimes(text, options);
  const claims: WindowClaim[] = [];
  const posts: IncidentUpdate[] = [];
  for (const range of extraction.ranges) {
    if (skip(range.from)) continue;
    const sentence = sentenceAt(text, range.from.index);
    claims.push({
      from: range.from.at,
      to: range.to.at,
      kind: REPLAY_CUE.test(sentence) ? 'stated' : 'impact',
      quote: quote(sentence),
    });
  }
  for (const mention of extraction.mentions) {
    if (mention.range || skip(mention)) continue;
    const [start, end] = sentenceBounds(text, mention.index);
    const cue = nearestCue(text, mention, start, end);
    if (cue === 'start') claims.push({ from: mention.at, kind: 'impact', quote: quote(text.slice(start, end)) });
    else if (cue === 'end') claims.push({ to: mention.at, kind: 'impact', quote: quote(text.slice(start, end)) });
    else if (cue === 'post') {
      const after = text.slice(mention.end, mention.end + 120).split(/[,.;\n]/)[0] ?? '';
      // The clause that names this one post, not the whole sentence listing all of them.
      posts.push({
        at: mention.at,
        status: statusFromText(after),
        body: quote(`${mention.written}${after}`),
        components: [],
      });
    }
  }
  return {
    claims,
    posts,
    mentions: extraction.mentions.filter((mention) => !skip(mention)),
    durations: extractDurations(text),
    // A range that ends before it starts says nothing credible about the window: it is noted, not read.
    notes: [...extraction.notes, ...extraction.problems.map((problem) => `${problem.message}; not read as a window`)],
    problems: extraction.problems,
  };
}

/** Cues further than this from a time are about something else, even in one long sentence. */
const CUE_REACH = 200;

function nearestCue(
  text: string,
  mention: TimeMention,
  sentenceStart: number,
  sentenceEnd: number,
): 'start' | 'end' | 'action' | 'post' | undefined {
  const offset = Math.max(sentenceStart, mention.index - CUE_REACH);
  const sentence = text.slice(offset, Math.min(sentenceEnd, mention.end + CUE_REACH));
  let best: { kind: 'start' | 'end' | 'action' | 'post'; distance: number } | undefined;
  for (const [pattern, kind] of CUES) {
    for (const match of sentence.matchAll(pattern)) {
      const at = offset + (match.index ?? 0);
      const distance = at < mention.index ? mention.index - (at + match[0].length) : at - mention.end;
      // Korean sentences put the verb after the time; English puts the time after "at".
      if (!best || distance < best.distance) best = { kind, distance };
    }
  }
  return best?.kind;
}

/** Notes for times read without a written zone, one line per kind, listing the times as written. */
export function zoneNotes(mentions: TimeMention[]): string[] {
  const notes: string[] = [];
  const assumed = unique(
    mentions.filter((mention) => mention.zoneFrom === 'assumed').map((mention) => mention.written.trim()),
  );
  if (assumed.length > 0)
    notes.push(
      `zoneAssumed: ${assumed.join(', ')} ${assumed.length === 1 ? 'has' : 'have'} no time zone in the document; read as UTC`,
    );
  const inherited = mentions.filter((mention) => mention.zoneFrom === 'inherited');
  const byZone = new Map<string, string[]>();
  for (const mention of inherited)
    byZone.set(mention.zone, unique([...(byZone.get(mention.zone) ?? []), mention.written.trim()]));
  for (const [zone, written] of byZone)
    notes.push(
      `zoneInherited: ${written.join(', ')} ${written.length === 1 ? 'has' : 'have'} no time zone; read as ${zone} like the times written before ${written.length === 1 ? 'it' : 'them'}`,
    );
  return notes;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

function quote(sentence: string): string {
  const flat = sentence.slice(0, 400).replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 157)}…` : flat;
}
