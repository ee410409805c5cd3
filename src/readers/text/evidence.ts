// Components and regions an incident's own words name, matched against the provider's catalog entry, each with the
// sentence that says so. Component names that are everyday words ("Issues", "Actions", "Pages") count only where they
// are written as names (capitalised, not opening a sentence) or after a cue ("degraded performance for Issues").
import type { Provider } from '../../catalog/schema.js';
import type { TextEvidence } from '../../model.js';
import { sentenceAt } from '../time/extract.js';

const EVERYDAY = new Set([
  'actions',
  'api',
  'apps',
  'billing',
  'calls',
  'community',
  'connectivity',
  'dashboard',
  'docs',
  'documentation',
  'files',
  'general',
  'issues',
  'login',
  'messaging',
  'network',
  'notifications',
  'other',
  'packages',
  'pages',
  'posts',
  'requests',
  'search',
  'services',
  'support',
  'systems',
  'web',
  'website',
  'workflows',
]);
const CUE = /(?:\bfor|\bwith|\baffecting|\bimpacting|\bimpacted|\baffected:?|\bin|\bto|\bof)[ \t]+(?:the[ \t]+)?$/i;
/** Text this long is read only in its first part: evidence is in the opening and the update bodies, not in megabytes. */
const MAX_TEXT = 200_000;

/** Regions named by location rather than id, for the clouds whose catalog lists region ids. */
const LOCATIONS: Record<string, string[]> = {
  'us-east-1': ['N. Virginia', 'Northern Virginia'],
  'us-east-2': ['Ohio'],
  'us-west-1': ['N. California', 'Northern California'],
  'us-west-2': ['Oregon'],
  'eu-central-1': ['Frankfurt'],
  'eu-west-1': ['Ireland'],
  'eu-west-2': ['London'],
  'eu-west-3': ['Paris'],
  'eu-north-1': ['Stockholm'],
  'eu-south-1': ['Milan'],
  'ap-northeast-1': ['Tokyo'],
  'ap-northeast-2': ['Seoul'],
  'ap-southeast-1': ['Singapore'],
  'ap-southeast-2': ['Sydney'],
  'ap-south-1': ['Mumbai'],
  'ap-east-1': ['Hong Kong'],
  'sa-east-1': ['São Paulo', 'Sao Paulo'],
  'ca-central-1': ['Canada Central'],
  'me-south-1': ['Bahrain'],
  'af-south-1': ['Cape Town'],
  'europe-west1': ['Belgium'],
  'europe-west2': ['London'],
  'europe-west3': ['Frankfurt'],
  'europe-west4': ['Netherlands'],
  'us-central1': ['Iowa'],
  'us-east1': ['South Carolina'],
  'us-east4': ['Northern Virginia'],
  'us-west1': ['Oregon'],
  'asia-northeast1': ['Tokyo'],
  'asia-southeast1': ['Singapore'],
  germanywestcentral: ['Frankfurt'],
  westeurope: ['West Europe', 'Netherlands'],
  northeurope: ['North Europe', 'Ireland'],
  eastus: ['East US'],
  eastus2: ['East US 2'],
  westus2: ['West US 2'],
};

export interface EvidenceFound {
  components: string[];
  regions: string[];
  evidence: TextEvidence[];
}

/** Catalog components and regions named in `text`; `listed` is a list the document itself calls affected. */
export function evidenceFromText(provider: Provider | undefined, text: string, listed = ''): EvidenceFound {
  const found: EvidenceFound = { components: [], regions: [], evidence: [] };
  if (!provider) return found;
  const body = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
  for (const component of provider.components) {
    for (const name of [component.name, ...(component.aliases ?? [])]) {
      const at = listed && mentions(name, listed, true) >= 0 ? -2 : mentions(name, body, false);
      if (at === -1) continue;
      found.components.push(component.name);
      found.evidence.push({
        kind: 'component',
        value: component.name,
        quote: at === -2 ? quote(`affected: ${listed}`) : quote(sentenceAt(body, at)),
      });
      break;
    }
  }
  for (const region of provider.regions ?? []) {
    for (const name of [region, ...(LOCATIONS[region] ?? [])]) {
      const at = indexOfWord(body, name, name === region);
      if (at < 0) continue;
      found.regions.push(region);
      found.evidence.push({ kind: 'region', value: region, quote: quote(sentenceAt(body, at)) });
      break;
    }
  }
  return found;
}

/** Where `name` is mentioned as a component (-1 when it is not): singular or plural, everyday words only as names. */
function mentions(name: string, text: string, listed: boolean): number {
  if (name.length < 3) return -1;
  const everyday = EVERYDAY.has(name.toLowerCase());
  const stem = name.replace(/s$/i, '');
  const pattern = new RegExp(`(?<![\\w-])${escapePattern(stem)}s?(?![\\w-])`, everyday && !listed ? 'g' : 'gi');
  for (const match of text.matchAll(pattern)) {
    const index = match.index ?? 0;
    if (!everyday || listed) return index;
    const before = text.slice(Math.max(0, index - 40), index);
    const opensSentence = /(?:^|[.!?:]\s+|\n\s*(?:[-*•]\s*)?)$/.test(before);
    if (CUE.test(before) || !opensSentence) return index;
  }
  return -1;
}

function indexOfWord(text: string, word: string, caseless: boolean): number {
  const match = new RegExp(`(?<![\\w-])${escapePattern(word)}(?![\\w-])`, caseless ? 'i' : '').exec(text);
  return match ? match.index : -1;
}

function escapePattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '[ \\t-]+');
}

function quote(sentence: string): string {
  const flat = sentence.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 159)}…` : flat;
}
