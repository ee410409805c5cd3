// Platform registry: which URLs a provider's `status` block means, and which adapter reads each body.
import type { Provider } from '../../catalog/schema.js';
import { parseAwsCurrentEvents, parseAwsRss } from './aws.js';
import { parseAzureFeed } from './azure.js';
import { parseBetterStack } from './betterstack.js';
import { parseGenericFeed } from './feed.js';
import { parseGcp } from './gcp.js';
import { parseHeroku } from './heroku.js';
import { parseIncidentIo } from './incidentio.js';
import { parseInstatus } from './instatus.js';
import { parseSlack } from './slack.js';
import { parseStatusIo } from './statusio.js';
import { parseStatuspage } from './statuspage.js';
import { parseStatuspageFeed } from './statuspage-feed.js';
import { AdapterError, type Adapter } from './types.js';

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
  json?: Adapter;
  xml: Adapter;
}

const SPECS: Record<Platform, PlatformSpec> = {
  statuspage: {
    defaults: (base) => [
      `${base}/api/v2/incidents.json`,
      `${base}/api/v2/scheduled-maintenances.json`,
      `${base}/api/v2/components.json`,
    ],
    feed: (base) => `${base}/history.atom`,
    json: parseStatuspage,
    xml: parseStatuspageFeed,
  },
  incidentio: {
    // incident.io answers the Statuspage paths, but /scheduled-maintenances/* is a 404 there.
    defaults: (base) => [`${base}/api/v2/incidents.json`, `${base}/api/v2/components.json`],
    feed: (base) => `${base}/history.atom`,
    json: parseIncidentIo,
    xml: parseStatuspageFeed,
  },
  instatus: {
    defaults: (base) => [`${base}/v3/summary.json`, `${base}/v3/components.json`],
    feed: (base) => `${base}/history.rss`,
    json: parseInstatus,
    xml: parseGenericFeed,
  },
  betterstack: { defaults: (base) => [`${base}/index.json`], json: parseBetterStack, xml: parseGenericFeed },
  statusio: {
    defaults: (_base, status) =>
      status.pageId ? [`https://api.status.io/1.0/status/${encodeURIComponent(status.pageId)}`] : [],
    json: parseStatusIo,
    xml: parseGenericFeed,
  },
  // GCP, AWS, Slack and Heroku feeds use other ids than their JSON, so they are read only when listed as endpoints.
  gcp: { defaults: (base) => [`${base}/incidents.json`], json: parseGcp, xml: parseGenericFeed },
  aws: {
    defaults: (base) => [`${new URL(base).origin}/public/currentevents`],
    json: parseAwsCurrentEvents,
    xml: parseAwsRss,
  },
  azure: { defaults: (base, status) => [status.feed ?? `${base}/feed/`], xml: parseAzureFeed },
  slack: {
    defaults: (base) => [`${base}/api/v2.0.0/current`, `${base}/api/v2.0.0/history`],
    json: parseSlack,
    xml: parseGenericFeed,
  },
  heroku: { defaults: (base) => [`${base}/api/v4/current-status`], json: parseHeroku, xml: parseGenericFeed },
  rss: { defaults: (base, status) => [status.feed ?? base], xml: parseGenericFeed },
  atom: { defaults: (base, status) => [status.feed ?? base], xml: parseGenericFeed },
  // A custom page has no adapter of its own; its feed, when it has one, is still worth reading.
  custom: { defaults: (_base, status) => (status.feed ? [status.feed] : []), xml: parseGenericFeed },
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

/** The adapter for a body of this kind on this platform; throws AdapterError when there is none. */
export function adapterFor(platform: Platform, kind: 'json' | 'xml', source: string): Adapter {
  const spec = SPECS[platform];
  const adapter = kind === 'json' ? spec.json : spec.xml;
  if (!adapter) throw new AdapterError(`${source}: a JSON body, but ${platform} pages are read from their feed`);
  return adapter;
}

/** Why a provider cannot be synced at all, or undefined when it can. */
export function unsyncableReason(status: Status): string | undefined {
  if (endpointsFor(status).length > 0) return undefined;
  if (status.platform === 'statusio') return 'status.io page without a pageId or endpoints';
  if (status.platform === 'custom') return 'custom status page without a feed; no adapter reads it';
  return `no endpoints for platform ${status.platform}`;
}
