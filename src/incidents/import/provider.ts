// Which catalog provider a document is about, and which upstream providers it blames. Strong signs (the provider's
// status page, page id, its name in the title) decide at once; otherwise mentions are weighed — names, product and
// component names, hosts — and the answer comes only when one provider clearly dominates. Close calls are asked.
import type { Catalog } from '../../catalog/loader.js';
import type { Provider } from '../../catalog/schema.js';
import { UsageError } from '../../errors.js';
import type { ProviderHints } from '../../readers/draft.js';
import { sentenceAt } from '../../readers/time/extract.js';

const UPSTREAM_CUE =
  /\broot cause|\bcaused by\b|\bdue to\b|\bfollowing an?\b|\bupstream\b|\bclaims?\b|\bsays?\b|\bsaid\b|\bprovider\b|\bvendor\b|\battribut|\bon (?:the|their|its) (?:\w+ )?side\b/i;
/** Inference reads the opening of very long documents only: who an incident belongs to is said early. */
const MAX_TEXT = 60_000;
/** Ids a catalog entry can be stored under when it is not in the catalog (`--provider acme-ledger`). */
const PROVIDER_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;

interface Evidence {
  id: string;
  strong: string[];
  mentions: number;
  upstreamMentions: number;
  /** Links to the provider's hosts: weaker than a name (a github.com issue link is bookkeeping, not the subject). */
  hosts: number;
  /** The words that were counted, for saying why. */
  words: Set<string>;
}

export interface ProviderChoice {
  provider: string;
  upstream: string[];
  /** How the provider was inferred, when it was not given or named outright. */
  inferred?: string;
  /** Set when `--provider` names an id the catalog lacks. */
  outsideCatalog?: boolean;
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
    if (catalog.providers.has(override)) return { provider: override, upstream: upstreamOf(override) };
    if (!PROVIDER_ID.test(override))
      throw new UsageError(
        `--provider "${override.slice(0, 60)}" is not a provider id (lowercase letters, digits and dashes, as in providers/<id>.yaml)`,
      );
    return { provider: override, upstream: upstreamOf(override), outsideCatalog: true };
  }
  const strong = evidence.filter((item) => item.strong.length > 0).sort((a, b) => strongScore(b) - strongScore(a));
  const [first, second] = strong;
  if (first && (!second || strongScore(first) >= 2 * strongScore(second)))
    return { provider: first.id, upstream: upstreamOf(first.id) };
  if (!first) {
    // Nobody owns the document: the provider it is about is the one it keeps naming, cause or not.
    const weighed = evidence.filter((item) => weight(item) > 0).sort((a, b) => weight(b) - weight(a));
    const [top, runnerUp] = weighed;
    if (top && weight(top) >= 2 && (!runnerUp || weight(top) >= 2 * weight(runnerUp))) {
      const others = weighed
        .slice(1, 4)
        .map((item) => `${item.id} ${Math.round(weight(item))}`)
        .join(', ');
      const count = top.mentions + top.upstreamMentions + top.hosts;
      return {
        provider: top.id,
        upstream: upstreamOf(top.id),
        inferred: `${count} mention${count === 1 ? '' : 's'} of ${[...top.words].slice(0, 3).join(' / ')}${others ? `; also mentioned: ${others}` : ''}`,
      };
    }
  }
  const candidates = (strong.length > 0 ? strong : evidence.filter((item) => weight(item) > 0)).map(
    (item) => `${item.id} (${Math.round(strong.length > 0 ? strongScore(item) : weight(item))})`,
  );
  const detail =
    candidates.length === 0 ? 'it names no provider from the catalog' : `too close to call: ${candidates.join(', ')}`;
  throw new UsageError(
    `${file}: cannot tell which provider this incident belongs to (${detail}); pass --provider ID (an id outside the catalog is accepted)`,
  );
}

function strongScore(item: Evidence): number {
  return item.strong.length * 10 + weight(item);
}

function weight(item: Evidence): number {
  return item.mentions + item.upstreamMentions + item.hosts * 0.5;
}

/** Product names several catalog providers use ("Load Balancer") say nothing about which one is meant. */
const sharedNames = new WeakMap<Catalog, Set<string>>();

function namesSharedIn(catalog: Catalog): Set<string> {
  let shared = sharedNames.get(catalog);
  if (!shared) {
    const owners = new Map<string, Set<string>>();
    for (const provider of catalog.providers.values())
      for (const component of provider.components)
        for (const name of [component.name, ...(component.aliases ?? [])]) {
          const key = name.toLowerCase();
          owners.set(key, new Set([...(owners.get(key) ?? []), provider.id]));
        }
    shared = new Set([...owners].filter(([, ids]) => ids.size > 1).map(([name]) => name));
    sharedNames.set(catalog, shared);
  }
  return shared;
}

function gather(hints: ProviderHints, catalog: Catalog): Evidence[] {
  const out: Evidence[] = [];
  const shared = namesSharedIn(catalog);
  const owners = hints.owners.join('\n').slice(0, MAX_TEXT);
  // Links are counted by their host, at half weight: a tracker link is bookkeeping, not what the incident is about.
  const text = hints.text.slice(0, MAX_TEXT).replace(/\bhttps?:\/\/[^\s)"'<>]{1,2000}/g, ' ');
  const hosts = hints.urls.map(hostOf).filter((host): host is string => host !== undefined);
  const pages = statusPagesOf(hints.urls, catalog);
  for (const provider of catalog.providers.values()) {
    const item: Evidence = {
      id: provider.id,
      strong: [],
      mentions: 0,
      upstreamMentions: 0,
      hosts: 0,
      words: new Set(),
    };
    const statusHost = hostOf(provider.status.url);
    for (const host of hosts) {
      if (statusHost && host === statusHost) {
        if (pages.get(host)?.includes(provider.id) ?? true) item.strong.push(`status page ${host}`);
      } else if (ownsHost(provider, host)) item.hosts++;
    }
    if (provider.status.pageId && hints.pageIds?.includes(provider.status.pageId))
      item.strong.push(`page id ${provider.status.pageId}`);
    const names = nameMatchers(provider);
    if (
      names.some((name) =>
        [...owners.matchAll(name)].some((match) => !UPSTREAM_CUE.test(sentenceAt(owners, match.index ?? 0))),
      )
    )
      item.strong.push('named in the title or heading');
    for (const name of [...names, ...productMatchers(provider, shared)]) {
      for (const match of text.matchAll(name)) {
        item.words.add(match[0]);
        if (UPSTREAM_CUE.test(sentenceAt(text, match.index ?? 0))) item.upstreamMentions++;
        else item.mentions++;
      }
    }
    if (item.strong.length > 0 || weight(item) > 0) out.push(item);
  }
  return out;
}

/** The provider's name and id as whole words; ids under three letters are too ambiguous to count. */
function nameMatchers(provider: Provider): RegExp[] {
  const words = [provider.name, ...(provider.id.length >= 3 ? [provider.id.replace(/-/g, ' ')] : [])];
  return [...new Set(words.map((word) => word.toLowerCase()))].map(wordPattern);
}

/**
 * Product and component names distinctive enough to stand for their provider ("Network Load Balancer", "Codespaces"):
 * several words or one long name, never an everyday word that every status page uses.
 */
function productMatchers(provider: Provider, shared: Set<string>): RegExp[] {
  const names = provider.components
    .flatMap((component) => [component.name, ...(component.aliases ?? [])])
    .filter((name) => !shared.has(name.toLowerCase()));
  return [
    ...new Set(
      names
        .filter((name) => (/\s/.test(name.trim()) ? name.length >= 8 : name.length >= 10))
        .map((name) => name.toLowerCase()),
    ),
  ].map(wordPattern);
}

function wordPattern(word: string): RegExp {
  return new RegExp(`(?<![\\w-])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '[ -]')}(?![\\w-])`, 'gi');
}

/**
 * Per host, the providers whose status page a URL of the document is under, longest page first: Google Cloud and
 * Google Maps Platform share status.cloud.google.com, and `/maps-platform/…` is the latter's, the rest the former's.
 */
function statusPagesOf(urls: string[], catalog: Catalog): Map<string, string[]> {
  const pages = new Map<string, string[]>();
  const key = (url: string) =>
    url
      .toLowerCase()
      .replace(/^https?:\/\/(www\.)?/, '')
      .replace(/\/+$/, '');
  for (const url of urls) {
    const host = hostOf(url);
    if (!host) continue;
    const target = key(url);
    let best = -1;
    let owners: string[] = [];
    for (const provider of catalog.providers.values()) {
      const page = key(provider.status.url);
      if (hostOf(provider.status.url) !== host || !(target === page || target.startsWith(`${page}/`))) continue;
      if (page.length > best) [best, owners] = [page.length, [provider.id]];
      else if (page.length === best) owners.push(provider.id);
    }
    if (best >= 0) pages.set(host, [...new Set([...(pages.get(host) ?? []), ...owners])]);
  }
  return pages;
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
