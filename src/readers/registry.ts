// Every reader by name, how a document shows which one it needs (import), and which ones read a platform's bodies
// (sync). One table, so a format sync reads is a format import reads.
import { isRecord, parseJsonText } from '../json-text.js';
import { parseAwsCurrentEvents, parseAwsRss } from './formats/aws.js';
import { isAwsStatusData, parseAwsStatusData } from './formats/aws-status-data.js';
import { parseAzureFeed } from './formats/azure.js';
import { parseBetterStack } from './formats/betterstack.js';
import { looksLikeFeed, parseGenericFeed } from './formats/feed.js';
import { isFireHydrantPayload, parseFireHydrant } from './formats/firehydrant.js';
import { parseGcp } from './formats/gcp.js';
import { parseHeroku } from './formats/heroku.js';
import { isIncidentlibRecord, parseIncidentlib } from './formats/incidentlib.js';
import { parseIncidentIo } from './formats/incidentio.js';
import { parseInstatus } from './formats/instatus.js';
import { parseSlack } from './formats/slack.js';
import { parseStatusIo } from './formats/statusio.js';
import { isStatuspageJson, parseStatuspage } from './formats/statuspage.js';
import { parseStatuspageFeed } from './formats/statuspage-feed.js';
import { parseTextPage } from './formats/text-page.js';
import { rec, str } from './platform.js';
import { type Reader, ReaderError } from './types.js';

export type FormatName =
  | 'statuspage'
  | 'statuspage-feed'
  | 'incidentio'
  | 'instatus'
  | 'betterstack'
  | 'statusio'
  | 'gcp'
  | 'aws'
  | 'aws-rss'
  | 'aws-status-data'
  | 'azure'
  | 'slack'
  | 'heroku'
  | 'firehydrant'
  | 'feed'
  | 'incidentlib'
  | 'text';

export const READERS: Record<FormatName, Reader> = {
  statuspage: parseStatuspage,
  'statuspage-feed': parseStatuspageFeed,
  incidentio: parseIncidentIo,
  instatus: parseInstatus,
  betterstack: parseBetterStack,
  statusio: parseStatusIo,
  gcp: parseGcp,
  aws: parseAwsCurrentEvents,
  'aws-rss': parseAwsRss,
  'aws-status-data': parseAwsStatusData,
  azure: parseAzureFeed,
  slack: parseSlack,
  heroku: parseHeroku,
  firehydrant: parseFireHydrant,
  feed: parseGenericFeed,
  incidentlib: parseIncidentlib,
  text: parseTextPage,
};

/** Sniffers for JSON documents, most specific first; each looks at the parsed value only. */
const JSON_SHAPES: Array<[FormatName, (data: unknown) => boolean]> = [
  ['incidentlib', isIncidentlibRecord],
  ['incidentio', (data) => isRecord(data) && (isRecord(data.summary) || 'page_title' in data)],
  ['statuspage', isStatuspageJson],
  [
    'statusio',
    (data) =>
      isRecord(data) && isRecord(data.result) && ('status_overall' in data.result || 'incidents' in data.result),
  ],
  ['betterstack', (data) => isRecord(data) && str(rec(data.data).type) === 'status_page'],
  ['firehydrant', isFireHydrantPayload],
  [
    'instatus',
    (data) => isRecord(data) && isRecord(data.page) && ('activeIncidents' in data || 'activeMaintenances' in data),
  ],
  [
    'slack',
    (data) =>
      (isRecord(data) && Array.isArray(data.active_incidents)) ||
      every(data, (item) => 'notes' in item && 'date_created' in item),
  ],
  [
    'heroku',
    (data) =>
      (isRecord(data) && Array.isArray(data.incidents) && Array.isArray(data.scheduled)) ||
      every(data, (item) => 'full_url' in item && 'updates' in item),
  ],
  ['gcp', (data) => every(data, (item) => 'external_desc' in item && 'begin' in item)],
  ['aws', (data) => every(data, (item) => 'arn' in item || 'event_log' in item)],
  ['aws-status-data', isAwsStatusData],
];

function every(data: unknown, test: (item: Record<string, unknown>) => boolean): boolean {
  return Array.isArray(data) && data.length > 0 && data.every((item) => isRecord(item) && test(item));
}

export interface Detected {
  format: FormatName;
  reader: Reader;
  /** The parsed JSON, handed to the reader so it is parsed once. */
  json?: unknown;
}

/** Which reader a document needs, from its content alone (never its file name). */
export function detectFormat(text: string, source: string): Detected {
  const start = text.trimStart();
  if (start.startsWith('{') || start.startsWith('[')) {
    const json = parseJsonText(text, source);
    const found = JSON_SHAPES.find(([, test]) => test(json));
    if (found) return { format: found[0], reader: READERS[found[0]], json };
    if (isRecord(json) && Array.isArray(json.incidents) && json.incidents.length === 0)
      throw new ReaderError(source, 'a Statuspage incidents list with no incidents in it: nothing to import', 1);
    throw new ReaderError(
      source,
      'JSON, but not a format downstack reads (Statuspage, incident.io, status.io, Instatus, Better Stack, Slack, Heroku, Google Cloud or AWS Health incidents, the older AWS dashboard data, or an incidentlib record)',
      1,
    );
  }
  if (looksLikeFeed(text)) {
    const head = text.slice(0, 50_000);
    // The channel's own title, link and generator say whose feed it is; entries may link anywhere.
    const channel = head.slice(0, Math.max(0, head.search(/<(?:item|entry)\b/i))) || head.slice(0, 2000);
    const format: FormatName = /AWS Service Health Dashboard|status\.aws\.amazon\.com/i.test(channel)
      ? 'aws-rss'
      : /azure\.status\.microsoft|azurestatuscdn|Azure Status/i.test(channel)
        ? 'azure'
        : /data-var=['"](?:date|time)['"]|<generator>incident\.io|&lt;small&gt;|<small>|Status: (?:Investigating|Identified|Monitoring|Resolved)/i.test(
              head,
            )
          ? 'statuspage-feed'
          : 'feed';
    return { format, reader: READERS[format] };
  }
  return { format: 'text', reader: READERS.text };
}
