// Platform registry: which URLs a provider's `status` block means, and which reader (src/readers/) reads each body.
import type { Provider } from '../../catalog/schema.js';
import { READERS } from '../../readers/registry.js';
import { type Reader, ReaderError } from '../../readers/types.js';

type Platform = Provider['status']['platform'];
type Status = Provider['status'];

export interface Endpoint {
  url: string;
  /** A failed optional endpoint (a backfill feed, components.json, maintenance) is a warning, not a failed provider. */
  optional: boolean;
}

interface PlatformSpec {
  /** Default endpoints derived from the page URL; explicit `endpoints` replace the API part. */
  defaults(base: string, status: Status): string[];
  /** Whether the `feed` (or a default history feed) is read as a backfill. */
  feed?: (base: string) => string;
  json?: Reader;
  xml: Reader;
}

const SPECS: Record<Platform, PlatformSpec> = {
  statuspage: {
    defaults: (base) => [
      `${base}/api/v2/incidents.json`,
      `${base}/api/v2/scheduled-maintenances.json`,
      `${base}/api/v2/components.json`,
    ],
    feed: (base) => `${base}/history.atom`,
    json: READERS.statuspage,
    xml: READERS['statuspage-feed'],
  },
  incidentio: {
    // incident.io answers the Statuspage paths, but /scheduled-maintenances/* is a 404 there.
    defaults: (base) => [`${base}/api/v2/incidents.json`, `${base}/api/v2/components.json`],
    feed: (base) => `${base}/history.atom`,
    json: READERS.incidentio,
    xml: READERS['statuspage-feed'],
  },
  instatus: {
    defaults: (base) => [`${base}/v3/summary.json`, `${base}/v3/components.json`],
    feed: (base) => `${base}/history.rss`,
    json: READERS.instatus,
    xml: READERS.feed,
  },
  betterstack: { defaults: (base) => [`${base}/index.json`], json: READERS.betterstack, xml: READERS.feed },
  statusio: {
    defaults: (_base, status) =>
      status.pageId ? [`https://api.status.io/1.0/status/${encodeURIComponent(status.pageId)}`] : [],
    json: READERS.statusio,
    xml: READERS.feed,
  },
  // GCP, AWS, Slack and Heroku feeds use other ids than their JSON, so they are read only when listed as endpoints.
  gcp: { defaults: (base) => [`${base}/incidents.json`], json: READERS.gcp, xml: READERS.feed },
  aws: {
    defaults: (base) => [`${new URL(base).origin}/public/currentevents`],
    json: READERS.aws,
    xml: READERS['aws-rss'],
  },
  azure: { defaults: (base, status) => [status.feed ?? `${base}/feed/`], xml: READERS.azure },
  slack: {
    defaults: (base) => [`${base}/api/v2.0.0/current`, `${base}/api/v2.0.0/history`],
    json: READERS.slack,
    xml: READERS.feed,
  },
  heroku: { defaults: (base) => [`${base}/api/v4/current-status`], json: READERS.heroku, xml: READERS.feed },
  // Whether FireHydrant's /data/rss.xml items carry payload.json's ids is not known: read only when listed.
  firehydrant: { defaults: (base) => [`${base}/data/payload.json`], json: READERS.firehydrant, xml: READERS.feed },
  rss: { defaults: (base, status) => [status.feed ?? base], xml: READERS.feed },
  atom: { defaults: (base, status) => [status.feed ?? base], xml: READERS.feed },
  // A custom page has no adapter of its own; its feed, when it has one, is still worth reading.
  custom: { defaults: (_base, status) => (status.feed ? [status.feed] : []), xml: READERS.feed },
};

/** The URLs sync reads for a provider, components first (their names feed the incidents' components). */
export function endpointsFor(status: Status): Endpoint[] {
  const spec = SPECS[status.platform];
  const base = status.url.replace(/\/+$/, '');
  const explicit = status.platform !== 'custom' && status.endpoints && status.endpoints.length > 0;
  const urls = explicit ? (status.endpoints ?? []) : spec.defaults(base, status);
  // The first endpoint is the one the provider's freshness rests on; the others add to it, so when one of them
  // is missing (a page without maintenance, a 404 on an endpoint another platform version lacks) it is a warning.
  const endpoints: Endpoint[] = urls.map((url, i) => ({ url, optional: i > 0 }));
  const feed = spec.feed ? (status.feed ?? spec.feed(base)) : undefined;
  if (feed && !endpoints.some((endpoint) => endpoint.url === feed)) endpoints.push({ url: feed, optional: true });
  return endpoints.sort((a, b) => Number(isComponents(b.url)) - Number(isComponents(a.url)));
}

export function isComponents(url: string): boolean {
  return /\/components\.json$/.test(url);
}

/** The reader for a body of this kind on this platform; throws ReaderError when there is none. */
export function readerFor(platform: Platform, kind: 'json' | 'xml', source: string): Reader {
  const spec = SPECS[platform];
  const reader = kind === 'json' ? spec.json : spec.xml;
  if (!reader) throw new ReaderError(source, `a JSON body, but ${platform} pages are read from their feed`);
  return reader;
}

/** Why a provider cannot be synced at all, or undefined when it can. */
export function unsyncableReason(status: Status): string | undefined {
  if (endpointsFor(status).length > 0) return undefined;
  if (status.platform === 'statusio') return 'status.io page without a pageId or endpoints';
  if (status.platform === 'custom') return 'custom status page without a feed; no adapter reads it';
  return `no endpoints for platform ${status.platform}`;
}
