// The Public Suffix List as psl answers it, from a table written at build time: psl builds a Map of its ~10,000 rules
// (punycode.toASCII on each) when it loads, about 50 ms at every run that meets a host; reading the table costs under
// a tenth of that. The table is made from psl's own rules data with the punycode psl uses, and read with psl's algorithm
// (findRule, parse and validate in node_modules/psl/index.js). It is used only while the installed psl is the one it
// was made from; without it (tests running from src, a damaged file, another psl) psl itself answers.
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type pslModule from 'psl';
import { writeFileAtomic } from './fs-atomic.js';
import { CODE_DIR } from './paths.js';

export const PUBLIC_SUFFIX_TABLE = join(CODE_DIR, 'public-suffixes.json');
const TABLE_VERSION = 1;

/** What psl.parse says of a host, in the fields normalizeHost reads, or the message of psl's validation error. */
export type SuffixAnswer = { error: string } | { listed: boolean; tld: string | null; domain: string | null };

export interface PublicSuffixes {
  source: 'table' | 'psl';
  /** A host of two or more lowercase ASCII `[a-z0-9-]` labels (normalizeHost checked it), as psl.parse answers it. */
  parse(host: string): SuffixAnswer;
}

const KINDS = ['normal', 'wildcard', 'exception'] as const;
type Kind = (typeof KINDS)[number];

interface TableFile {
  version: number;
  /** The psl the table was made from: its version and the size of its rules data. */
  psl: string;
  /**
   * Each kind's keys (the rule without `*.` or `!`, punycoded: the keys of psl's rulesByPunySuffix), sorted and joined
   * by spaces: one string per kind, split when read, costs less to parse than a JSON array of 10,000 strings.
   */
  keys: Record<Kind, string>;
  /** A rule's own suffix where its key differs (IDN rules): psl reports the suffix of such a host in Unicode. */
  unicode: Record<string, string>;
}

interface Table {
  keys: Record<Kind, string[]>;
  unicode: Map<string, string>;
}

const require = createRequire(import.meta.url);

/** psl's version and the size of its rules data (psl's package.json and data/rules.js, beside its dist folder). */
function pslFingerprint(entry: string): string {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', pathToFileURL(entry)), 'utf8')) as {
    version: string;
  };
  return `${version}:${statSync(new URL('../data/rules.js', pathToFileURL(entry))).size}`;
}

/** Writes the table from the installed psl's rules, keyed the way psl keys them. */
export async function writePublicSuffixTable(tablePath = PUBLIC_SUFFIX_TABLE): Promise<void> {
  const entry = require.resolve('psl');
  const rules = ((await import(new URL('../data/rules.js', pathToFileURL(entry)).href)) as { default: string[] })
    .default;
  const punycode = createRequire(entry)('punycode/punycode.js') as { toASCII(domain: string): string };
  const keys: Record<Kind, string[]> = { normal: [], wildcard: [], exception: [] };
  const unicode: Record<string, string> = {};
  for (const rule of rules) {
    const suffix = rule.replace(/^(\*\.|!)/, '');
    const key = punycode.toASCII(suffix);
    keys[rule.startsWith('*') ? 'wildcard' : rule.startsWith('!') ? 'exception' : 'normal'].push(key);
    if (key !== suffix) unicode[key] = suffix;
  }
  const table: TableFile = {
    version: TABLE_VERSION,
    psl: pslFingerprint(entry),
    keys: {
      normal: keys.normal.sort().join(' '),
      wildcard: keys.wildcard.sort().join(' '),
      exception: keys.exception.sort().join(' '),
    },
    unicode,
  };
  // IDN suffixes escaped, so the file is ASCII: it decodes and parses as one-byte text, faster than UTF-8 with IDNs.
  const ascii = JSON.stringify(table).replace(
    /[^\0-\x7f]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  await writeFileAtomic(tablePath, ascii);
}

function readTable(tablePath: string): Table | undefined {
  try {
    const file = JSON.parse(readFileSync(tablePath, 'utf8')) as TableFile;
    if (file.version !== TABLE_VERSION || file.psl !== pslFingerprint(require.resolve('psl'))) return undefined;
    return {
      keys: {
        normal: file.keys.normal.split(' '),
        wildcard: file.keys.wildcard.split(' '),
        exception: file.keys.exception.split(' '),
      },
      unicode: new Map(Object.entries(file.unicode)),
    };
  } catch {
    return undefined; // No table (or a damaged one): psl answers instead.
  }
}

/** Whether the sorted `keys` hold `key`. */
function holds(keys: readonly string[], key: string): boolean {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((keys[middle] as string) < key) low = middle + 1;
    else high = middle;
  }
  return keys[low] === key;
}

/** psl's findRule: the longest suffix of the host's labels that is a rule's key. */
function findRule(table: Table, labels: string[]): { kind: Kind; suffix: string } | undefined {
  for (let start = 0; start < labels.length; start++) {
    const key = labels.slice(start).join('.');
    const kind = KINDS.find((candidate) => holds(table.keys[candidate], key));
    if (kind) return { kind, suffix: table.unicode.get(key) ?? key };
  }
  return undefined;
}

/** psl's errorCodes, for the checks a host of `[a-z0-9-]` labels can fail. */
const DOMAIN_TOO_LONG = 'Domain name too long. It should be no more than 255 chars.';
const LABEL_TOO_LONG = 'Domain name label should be at most 63 chars long.';
const LABEL_STARTS_WITH_DASH = 'Domain name label can not start with a dash.';
const LABEL_ENDS_WITH_DASH = 'Domain name label can not end with a dash.';

/** psl.parse (validate, then findRule and the suffix and domain it gives) on a host of `[a-z0-9-]` labels. */
function parseWithTable(table: Table, host: string): SuffixAnswer {
  if (host.length > 255) return { error: DOMAIN_TOO_LONG };
  const labels = host.split('.');
  for (const label of labels) {
    if (label.length > 63) return { error: LABEL_TOO_LONG };
    if (label.startsWith('-')) return { error: LABEL_STARTS_WITH_DASH };
    if (label.endsWith('-')) return { error: LABEL_ENDS_WITH_DASH };
  }
  if (labels.at(-1) === 'local') return { listed: false, tld: null, domain: null }; // psl: a non-Internet TLD.

  const rule = findRule(table, labels);
  // psl takes the last label as the suffix of a host no rule lists.
  if (!rule) return { listed: false, tld: labels.at(-1) as string, domain: labels.slice(-2).join('.') };
  // The suffix from the rule (in Unicode for IDN rules, as psl reports it), the labels before it from the host.
  const suffix = rule.suffix.split('.');
  let before = labels.length - suffix.length;
  if (rule.kind === 'exception') {
    suffix.shift();
    before++;
  }
  if (rule.kind === 'wildcard' && before > 0) {
    suffix.unshift(labels[before - 1] as string);
    before--;
  }
  const tld = suffix.join('.');
  if (before === 0) return { listed: true, tld, domain: null };
  // psl punycodes the domain it joins from the host's label and the suffix: that is the host's own labels.
  return { listed: true, tld, domain: labels.slice(before - 1).join('.') };
}

/** The table when it is usable, psl otherwise. Synchronous, since normalizeHost's callers are. */
export function loadPublicSuffixes(tablePath = PUBLIC_SUFFIX_TABLE): PublicSuffixes {
  const table = readTable(tablePath);
  if (table) return { source: 'table', parse: (host) => parseWithTable(table, host) };
  const psl = require('psl') as typeof pslModule;
  return {
    source: 'psl',
    parse: (host) => {
      const parsed = psl.parse(host);
      return 'error' in parsed
        ? { error: parsed.error.message }
        : { listed: parsed.listed, tld: parsed.tld, domain: parsed.domain };
    },
  };
}
