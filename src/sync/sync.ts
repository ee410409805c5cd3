// `downstack sync` as a library call: fetch each provider's status endpoints politely, read them with the
// platform's adapter, merge into the index file and write it atomically. A provider that fails in any way
// keeps its previous file untouched and is reported with the reason.
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import pLimit from 'p-limit';
import type { Catalog } from '../catalog/loader.js';
import type { Provider } from '../catalog/schema.js';
import { DownstackError, IndexError, ParseError } from '../errors.js';
import { ReaderError } from '../readers/types.js';
import { IncidentIndex, indexWriteError } from '../incidents/store.js';
import type { IndexFile } from '../incidents/schema.js';
import type { Incident } from '../model.js';
import { cleanLine } from '../sanitize.js';
import { finishDraft } from '../readers/finish.js';
import { describeProblem, type ReaderContext, type ReaderResult } from '../readers/types.js';
import { endpointsFor, isComponents, readerFor, unsyncableReason, type Endpoint } from './adapters/index.js';
import { decodeBody, sniffBody } from './decode.js';
import { PoliteClient, type FetchResult, type HttpOptions, type HttpStats, type Validators } from './http.js';
import { acquireLock, type HeldLock } from '../incidents/lock.js';
import { VERSION } from '../version.js';
import { type Batch, MAX_INCIDENTS_PER_PROVIDER, mergeIncidents } from './merge.js';
import { byText } from '../text-order.js';

const MAX_INCIDENTS_PER_PAYLOAD = 5_000;

export type Outcome = 'synced' | 'unchanged' | 'failed' | 'skipped';

export interface ProviderReport {
  provider: string;
  outcome: Outcome;
  /** Why it failed or was skipped (first cause), already cleaned for a terminal. */
  reason?: string;
  /** Problems that did not stop the provider: skipped items, an optional endpoint that failed. */
  warnings: string[];
  added: number;
  updated: number;
  closed: number;
  /** Incidents in the index file after this run (the previous count when it failed; unknown after an unexpected error). */
  total?: number;
  requests: number;
}

export type SyncEvent =
  | { type: 'start'; total: number; lockRecovered?: string }
  | { type: 'provider'; report: ProviderReport; done: number; total: number };

export interface SyncOptions {
  indexDir: string;
  catalog: Catalog;
  /** Provider ids to sync (already validated against the catalog). */
  providers: string[];
  http?: Partial<HttpOptions>;
  /** Aborts the whole run (requests fail with "deadline reached", data stays as it was). */
  signal?: AbortSignal;
  lockWaitMs?: number;
  /** The caller holds the index lock already (the gate's sync runs in a worker while the CLI holds it). */
  lockHeld?: boolean;
  onEvent?: (event: SyncEvent) => void;
  now?: () => Date;
  /** Providers whose status pages must be on public addresses (those a repository defines itself). */
  publicOnly?: ReadonlySet<string>;
}

export interface SyncReport {
  providers: ProviderReport[];
  http: HttpStats;
  lockRecovered?: string;
}

/** `downstack/<version> (+<where to read about it>)`, so a status page operator can tell who is asking. */
export function userAgent(): string {
  return `downstack/${VERSION} (+https://www.npmjs.com/package/downstack)`;
}

export async function runSync(options: SyncOptions): Promise<SyncReport> {
  const now = options.now ?? (() => new Date());
  const lock: HeldLock = options.lockHeld
    ? { release: async () => undefined }
    : await acquireLock(options.indexDir, {
        waitMs: options.lockWaitMs ?? 30_000,
        signal: options.signal,
      }).catch((error: unknown) => {
        throw indexWriteError(error, options.indexDir);
      });
  try {
    await removeLeftovers(options.indexDir);
    await new IncidentIndex(options.indexDir).recoverBatch();
    const client = new PoliteClient({
      userAgent: userAgent(),
      ...options.http,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const index = new IncidentIndex(options.indexDir);
    const total = options.providers.length;
    options.onEvent?.({ type: 'start', total, ...(lock.recovered ? { lockRecovered: lock.recovered } : {}) });
    // Twice as many providers as request slots keep the slots busy while some providers parse and write;
    // the request limit, not this one, is what the status pages see.
    const limit = pLimit(Math.max(1, client.options.concurrency * 2));
    let done = 0;
    const reports = await Promise.all(
      options.providers.map((id) =>
        limit(async () => {
          const provider = options.catalog.providers.get(id);
          const report = provider
            ? await isolated(provider, () =>
                syncProvider(provider, index, client, now, options.publicOnly?.has(provider.id) === true),
              )
            : failed(id, 'skipped', 'not in the catalog', 0, 0);
          options.onEvent?.({ type: 'provider', report, done: ++done, total });
          return report;
        }),
      ),
    );
    return {
      providers: reports,
      http: { ...client.stats },
      ...(lock.recovered ? { lockRecovered: lock.recovered } : {}),
    };
  } finally {
    await lock.release();
  }
}

/**
 * A process killed mid-write leaves its temp file behind (the index file itself is old or new, never half).
 * Holding the lock, temp files older than a few minutes can only be such leftovers.
 */
async function removeLeftovers(dir: string): Promise<void> {
  const cutoff = Date.now() - 10 * 60_000;
  for (const name of await readdir(dir)) {
    if (
      !/^\.[0-9a-f]{12}\.tmp$|^\.sync\.lock\.[0-9a-f]{16}$|^\.sync\.lock\.claim-[0-9a-f]{16}(-\d+|\.[0-9a-f]{16})$/.test(
        name,
      )
    )
      continue;
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (info && info.mtimeMs < cutoff) await rm(path, { force: true });
  }
}

/** One provider's failure, whatever it is, is that provider's outcome: it never stops the others. */
async function isolated(provider: Provider, work: () => Promise<ProviderReport>): Promise<ProviderReport> {
  try {
    return await work();
  } catch (error) {
    const message =
      error instanceof DownstackError
        ? error.message
        : `unexpected error: ${(error as Error).message ?? String(error)}`;
    return failed(provider.id, 'failed', `${message}; its index file was left as it was`, undefined, 0);
  }
}

function failed(
  provider: string,
  outcome: 'failed' | 'skipped',
  reason: string,
  total: number | undefined,
  requests: number,
  warnings: string[] = [],
): ProviderReport {
  return {
    provider,
    outcome,
    reason: cleanLine(reason, 300),
    warnings,
    added: 0,
    updated: 0,
    closed: 0,
    ...(total === undefined ? {} : { total }),
    requests,
  };
}

async function syncProvider(
  provider: Provider,
  index: IncidentIndex,
  client: PoliteClient,
  now: () => Date,
  publicOnly: boolean,
): Promise<ProviderReport> {
  const unsyncable = unsyncableReason(provider.status);
  if (unsyncable) return failed(provider.id, 'skipped', unsyncable, 0, 0);

  let previous: IndexFile | undefined;
  let damaged: string | undefined;
  try {
    previous = await index.readIndexFile(provider.id);
  } catch (error) {
    if (!(error instanceof IndexError)) throw error;
    damaged = error.message;
  }
  const previousCount = previous?.incidents.length ?? 0;
  const endpoints = endpointsFor(provider.status);
  const fetchOne = (endpoint: Endpoint) =>
    client.get(endpoint.url, previous?.http?.[endpoint.url] ?? {}, { publicOnly });
  // The primary endpoint goes first: when it fails, the page is not asked for anything else.
  const primaryIndex = Math.max(
    0,
    endpoints.findIndex((endpoint) => !endpoint.optional),
  );
  const primary = await fetchOne(endpoints[primaryIndex] as Endpoint);
  if (primary.kind === 'failed')
    return failed(provider.id, 'failed', `${primary.url}: ${primary.reason}`, previousCount, primary.attempts);
  const results = await Promise.all(
    endpoints.map((endpoint, i) => (i === primaryIndex ? primary : fetchOne(endpoint))),
  );
  const requests = results.reduce((sum, result) => sum + result.attempts, 0);

  const warnings: string[] = [];
  const requiredFailure = results.find((result, i) => result.kind === 'failed' && !endpoints[i]?.optional);
  if (requiredFailure?.kind === 'failed')
    return failed(provider.id, 'failed', `${requiredFailure.url}: ${requiredFailure.reason}`, previousCount, requests);
  for (const result of results)
    if (result.kind === 'failed') warnings.push(`${result.url}: ${result.reason} (optional; skipped)`);

  const changed = results.some((result) => result.kind === 'ok');
  const time = now().toISOString();
  let batches: Batch[] = [];
  if (changed) {
    try {
      batches = readBodies(provider, endpoints, results, warnings);
    } catch (error) {
      if (error instanceof ParseError)
        return failed(provider.id, 'failed', describeReadError(error), previousCount, requests, warnings);
      throw error;
    }
  }
  const merged = mergeIncidents((previous?.incidents ?? []) as Incident[], batches, time);
  if (merged.dropped > 0)
    warnings.push(
      `${merged.dropped} oldest synced incident(s) dropped to keep the file at ${MAX_INCIDENTS_PER_PROVIDER} (imported and embedded ones are kept)`,
    );
  const file: IndexFile = {
    schemaVersion: 1,
    provider: provider.id,
    syncedAt: time,
    sources: results.filter((result) => result.kind !== 'failed').map((result) => result.url),
    http: validatorsAfter(previous?.http ?? {}, results),
    incidents: merged.incidents,
  };
  if (damaged) {
    // The damaged file is kept beside the new one, never silently replaced; a file downstack did not write is not
    // touched at all.
    await index.assertOwnFile(provider.id);
    const path = index.fileFor(provider.id);
    await rename(path, `${path}.damaged-${time.replace(/[:.]/g, '-')}`);
    warnings.push(`${damaged}; moved aside and rebuilt`);
  }
  await index.write(file);
  const unchanged = !changed || (merged.added === 0 && merged.updated === 0 && merged.closed === 0 && !damaged);
  return {
    provider: provider.id,
    outcome: unchanged ? 'unchanged' : 'synced',
    warnings,
    added: merged.added,
    updated: merged.updated,
    closed: merged.closed,
    total: merged.incidents.length,
    requests,
  };
}

function readBodies(provider: Provider, endpoints: Endpoint[], results: FetchResult[], warnings: string[]): Batch[] {
  const componentNames = new Map<string, string>();
  for (const component of provider.components) if (component.id) componentNames.set(component.id, component.name);
  const batches: Batch[] = [];
  // endpointsFor puts components.json first, so the names it adds are known when the incidents are read.
  results.forEach((result, i) => {
    if (result.kind !== 'ok') return;
    const optional = endpoints[i]?.optional ?? false;
    const context: ReaderContext = {
      source: result.url,
      pageUrl: provider.status.url,
      componentNames,
      ...(provider.regions ? { regions: new Set(provider.regions) } : {}),
    };
    let parsed: ReaderResult;
    let kind: 'json' | 'xml';
    try {
      const text = decodeBody(result.body, result.contentType);
      const sniffed = sniffBody(text);
      if (sniffed !== 'json' && sniffed !== 'xml')
        throw new ReaderError(result.url, `expected JSON or a feed, got ${describeBody(sniffed, result.contentType)}`);
      kind = sniffed;
      parsed = readerFor(provider.status.platform, kind, result.url)(text, context);
    } catch (error) {
      if (optional && error instanceof ParseError) {
        warnings.push(`${describeReadError(error)} (optional; skipped)`);
        return;
      }
      throw error;
    }
    let incidents: Incident[] = [];
    for (const draft of parsed.drafts) {
      const finished = finishDraft(draft, {
        provider: provider.id,
        entry: provider,
        source: result.url,
        pageUrl: provider.status.url,
      });
      if ('provider' in finished) incidents.push(finished);
      else warnings.push(describeProblem(result.url, finished));
    }
    if (incidents.length > MAX_INCIDENTS_PER_PAYLOAD) {
      // Real pages send tens to hundreds; a flood is either a broken page or a hostile one.
      warnings.push(
        `${result.url}: ${incidents.length} incidents in one payload; kept the newest ${MAX_INCIDENTS_PER_PAYLOAD}`,
      );
      incidents = incidents.sort((a, b) => byText(b.startedAt, a.startedAt)).slice(0, MAX_INCIDENTS_PER_PAYLOAD);
    }
    if (parsed.components && isComponents(result.url))
      for (const [id, name] of parsed.components) if (!componentNames.has(id)) componentNames.set(id, name);
    for (const problem of parsed.problems) warnings.push(describeProblem(result.url, problem));
    batches.push({
      source: result.url,
      incidents,
      listsAllOpen: parsed.listsAllOpen ?? false,
      rank: kind === 'json' ? 3 : 2,
    });
  });
  return batches;
}

/** 200s bring new validators, 304s keep theirs, failures drop them so the next run fetches in full. */
function validatorsAfter(previous: Record<string, Validators>, results: FetchResult[]): Record<string, Validators> {
  const next: Record<string, Validators> = {};
  for (const result of results) {
    if (result.kind === 'ok' && (result.validators.etag || result.validators.lastModified))
      next[result.url] = result.validators;
    else if (result.kind === 'not-modified' && previous[result.url])
      next[result.url] = previous[result.url] as Validators;
  }
  return next;
}

function describeBody(kind: string, contentType: string | undefined): string {
  const type = contentType ? ` (${cleanLine(contentType, 80)})` : '';
  if (kind === 'html') return `an HTML page${type}`;
  if (kind === 'empty') return `an empty body${type}`;
  return `something else${type}`;
}

function describeReadError(error: DownstackError | Error): string {
  return error instanceof ParseError ? error.located : error.message;
}
