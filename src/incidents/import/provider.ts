// Which catalog provider a document is about, and which upstream providers it blames; asks rather than guesses.
import type { Catalog } from '../../catalog/loader.js';
import type { Provider } from '../../catalog/schema.js';
import { UsageError } from '../../errors.js';
import type { ProviderHints } from './draft.js';
import { sentenceAt } from './time-extract.js';

const UPSTREAM_CUE =
  /\broot cause|\bcaused by\b|\bdue to\b|\bfollowing an?\b|\bupstream\b|\bclaims?\b|\bsays?\b|\bsaid\b|\bprovider\b|\bvendor\b|\battribut|\bon (?:the|their|its) (?:\w+ )?side\b/i;

interface Evidence {
  id: string;
  strong: string[];
  mentions: number;
  upstreamMentions: number;
}

export interface ProviderChoice {
  provider: string;
  upstream: string[];
}

export function chooseProvider(
  hints: ProviderHints,
  catalog: Catalog,
  override: string | undefined,
  file: string,
): ProviderChoice {
  const evidence = gather(hints, catalog);
  const upstreamOf = (primary: string) =>
    [
      ...new Set([
        ...evidence.filter((item) => item.upstreamMentions > 0).map((item) => item.id),
        ...(hints.upstream ?? []).filter((id) => catalog.providers.has(id)),
      ]),
    ]
      .filter((id) => id !== primary)
      .sort();
  if (override) {
    if (!catalog.providers.has(override))
      throw new UsageError(`unknown provider "${override}" for --provider (see \`downstack providers\`)`);
    return { provider: override, upstream: upstreamOf(override) };
  }
  const strong = evidence.filter((item) => item.strong.length > 0).sort((a, b) => score(b) - score(a));
  const [first, second] = strong;
  if (first && (!second || score(first) >= 2 * score(second)))
    return { provider: first.id, upstream: upstreamOf(first.id) };
  if (!first) {
    const named = evidence.filter((item) => item.mentions >= 2);
    if (named.length === 1 && named[0]) return { provider: named[0].id, upstream: upstreamOf(named[0].id) };
  }
  const candidates = (strong.length > 0 ? strong : evidence).map(
    (item) => `${item.id}${item.upstreamMentions > 0 && item.mentions === 0 ? ' (named as an upstream cause)' : ''}`,
  );
  const detail =
    candidates.length === 0 ? 'it names no provider from the catalog' : `candidates: ${candidates.join(', ')}`;
  throw new UsageError(`${file}: cannot tell which provider this incident belongs to (${detail}); pass --provider ID`);
}

function score(item: Evidence): number {
  return item.strong.length * 10 + item.mentions;
}

function gather(hints: ProviderHints, catalog: Catalog): Evidence[] {
  const out: Evidence[] = [];
  const owners = hints.owners.join('\n');
  const hosts = hints.urls.map(hostOf).filter((host): host is string => host !== undefined);
  for (const provider of catalog.providers.values()) {
    const names = nameMatchers(provider);
    const item: Evidence = { id: provider.id, strong: [], mentions: 0, upstreamMentions: 0 };
    const statusHost = hostOf(provider.status.url);
    for (const host of hosts) {
      if (statusHost && host === statusHost) item.strong.push(`status page ${host}`);
      else if (ownsHost(provider, host)) item.mentions++;
    }
    if (provider.status.pageId && hints.pageIds?.includes(provider.status.pageId))
      item.strong.push(`page id ${provider.status.pageId}`);
    if (
      names.some((name) =>
        [...owners.matchAll(new RegExp(name.source, 'gi'))].some(
          (match) => !UPSTREAM_CUE.test(sentenceAt(owners, match.index ?? 0)),
        ),
      )
    )
      item.strong.push('named in the title or heading');
    for (const name of names) {
      for (const match of hints.text.matchAll(new RegExp(name.source, 'gi'))) {
        if (UPSTREAM_CUE.test(sentenceAt(hints.text, match.index ?? 0))) item.upstreamMentions++;
        else item.mentions++;
      }
    }
    if (item.strong.length > 0 || item.mentions > 0 || item.upstreamMentions > 0) out.push(item);
  }
  return out;
}

/** The provider's name and id as whole words; ids under three letters are too ambiguous to count. */
function nameMatchers(provider: Provider): RegExp[] {
  const words = [provider.name, ...(provider.id.length >= 3 ? [provider.id.replace(/-/g, ' ')] : [])];
  return [...new Set(words.map((word) => word.toLowerCase()))].map(
    (word) =>
      new RegExp(`(?<![\\w-])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '[ -]')}(?![\\w-])`, 'i'),
  );
}

function ownsHost(provider: Provider, host: string): boolean {
  return (provider.match.domains ?? []).some(
    (domain) => !/[*{]/.test(domain) && (host === domain || host.endsWith(`.${domain}`)),
  );
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    // Not a URL (a bare word in a link list): it names no host, which is all this needs to know.
    return undefined;
  }
}
