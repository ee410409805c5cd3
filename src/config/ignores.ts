// Ignore rules from `.downstack.yml`: a finding someone judged harmless stops counting until the rule expires.
import type { Finding, ReplayBand } from '../model.js';
import { mergeWindows } from '../replay.js';
import type { IgnoreRule } from './load.js';

export interface IgnoredFinding {
  finding: Finding;
  /** The first rule that covers it (what reports cite); `rules` has all of them. */
  rule: IgnoreRule;
  rules: IgnoreRule[];
}

export interface ExpiredIgnore {
  rule: IgnoreRule;
  /** The findings it would still hide if it had not expired; they count again. */
  matches: Finding[];
}

/** What reports show besides the findings: what was ignored, and which ignores ran out. */
export interface ReportNotes {
  ignored: IgnoredFinding[];
  expired: ExpiredIgnore[];
}

export interface IgnoreOutcome extends ReportNotes {
  findings: Finding[];
  replay: ReplayBand[];
}

/** The instant a rule stops holding: a bare date holds through that whole day (UTC). */
export function expiresAt(rule: Pick<IgnoreRule, 'expires'>): Date {
  const bare = /^\d{4}-\d\d-\d\d$/.test(rule.expires);
  const start = Date.parse(bare ? `${rule.expires}T00:00:00Z` : rule.expires);
  return new Date(bare ? start + 86_400_000 : start);
}

/** Does the rule name this finding's provider (and incident, and one of its components, when it says)? */
export function ruleMatches(rule: IgnoreRule, finding: Finding): boolean {
  if (rule.provider !== finding.provider) return false;
  if (rule.incident !== undefined && rule.incident !== finding.incident.id) return false;
  if (rule.component === undefined) return true;
  const wanted = rule.component.toLowerCase();
  return finding.components.some((name) => name.toLowerCase() === wanted);
}

/**
 * The rules that together cover the finding, or undefined. Component rules only cover what they name: an
 * ignore for Actions does not hide an incident that also touched Webhooks.
 */
function coveringRules(rules: IgnoreRule[], finding: Finding): IgnoreRule[] | undefined {
  const matching = rules.filter((rule) => ruleMatches(rule, finding));
  const whole = matching.find((rule) => rule.component === undefined);
  if (whole) return [whole];
  const covered = new Set(matching.map((rule) => (rule.component ?? '').toLowerCase()));
  const all = finding.components.length > 0 && finding.components.every((name) => covered.has(name.toLowerCase()));
  return all ? matching : undefined;
}

/** Drops findings that live rules cover and re-plans the replay windows without them. */
export function applyIgnores(findings: Finding[], rules: IgnoreRule[], now: Date): IgnoreOutcome {
  const live = rules.filter((rule) => expiresAt(rule) > now);
  const expired = rules
    .filter((rule) => !live.includes(rule))
    .map((rule) => ({ rule, matches: findings.filter((finding) => ruleMatches(rule, finding)) }));
  const kept: Finding[] = [];
  const ignored: IgnoredFinding[] = [];
  for (const finding of findings) {
    const covering = coveringRules(live, finding);
    if (covering) ignored.push({ finding, rule: covering[0] as IgnoreRule, rules: covering });
    else kept.push(finding);
  }
  return { findings: kept, replay: mergeWindows(kept), ignored, expired };
}

/** One line per expired rule, for stderr and report footers. */
export function describeExpired(expired: ExpiredIgnore): string {
  const { rule, matches } = expired;
  const scope = [rule.provider, rule.component, rule.incident].filter(Boolean).join(' / ');
  const effect =
    matches.length > 0
      ? `${matches.length} finding${matches.length === 1 ? '' : 's'} count${matches.length === 1 ? 's' : ''} again`
      : 'it matches nothing in this report';
  return `${rule.file}:${rule.line}: ignore for ${scope} expired on ${rule.expires} ("${rule.reason}"); no longer ignored — ${effect}`;
}
