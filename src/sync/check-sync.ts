// `check --sync`: a short sync of the stack's providers before the check reads the index. It must never break a
// deploy: whatever goes wrong (offline, a lock held, a deadline) becomes a warning and the local index is used.
// The deadline covers the whole sync: it runs in a worker thread that is ended at the deadline, so a status page
// whose payload takes long to read cannot hold a gate past it (an abort signal cannot stop a running parse).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { loadCatalog, type Catalog } from '../catalog/loader.js';
import { DownstackError } from '../errors.js';
import { acquireLock } from '../incidents/lock.js';
import { buildMatcher, exposuresFor } from '../catalog/matcher.js';
import type { DnsStage } from '../dns/stage.js';
import { ownPackages, scanPaths } from '../scan.js';
import { cleanLine, type SafeText, text } from '../sanitize.js';
import { providerLine } from './progress.js';
import { runSync, type SyncReport } from './sync.js';
import type { SyncWorkerData, SyncWorkerMessage } from './sync-worker.js';

/**
 * The providers a stack is exposed to, upstream ones (runsOn) included, as `check` would find them (with the DNS
 * of its own domains when a DNS stage is given).
 */
export async function stackProviders(
  dependencies: Parameters<typeof exposuresFor>[0],
  catalog: Catalog,
  dns?: DnsStage,
  ownPackages: readonly string[] = [],
): Promise<string[]> {
  const matcher = buildMatcher(catalog);
  const found = dns ? (await dns.resolve(dependencies, matcher)).found : [];
  const { exposures } = exposuresFor([...dependencies, ...found], matcher, catalog, ownPackages);
  return [...new Set(exposures.map((exposure) => exposure.provider))].sort();
}

export interface CheckSyncOptions {
  paths: string[];
  indexDir: string;
  catalog?: Catalog;
  /** The whole sync, lock wait included, gives up after this long. */
  deadlineMs?: number;
  readStdin?: () => Promise<string>;
  /** Where warnings go (stderr in the CLI). */
  warn: (line: SafeText) => void;
  http?: Parameters<typeof runSync>[0]['http'];
  /** The run's DNS stage, shared with the check so each name is looked up once. */
  dns?: DnsStage;
  /** Providers whose status pages must be public (those the repository defines). */
  publicOnly?: ReadonlySet<string>;
  /**
   * The worker script that runs the sync (default: the one built next to this module). Without one (running from
   * the TypeScript sources), the sync runs in this thread and the deadline stops its requests, not its parsing.
   */
  worker?: URL;
}

/** Time the worker gets past the deadline to report what it abandoned, before it is ended. */
const WORKER_GRACE_MS = 250;

/** Syncs the stack's providers under a short deadline; never throws. */
export async function syncBeforeCheck(options: CheckSyncOptions): Promise<SyncReport | undefined> {
  const deadlineMs = options.deadlineMs ?? 8_000;
  const deadline = Date.now() + deadlineMs;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), deadlineMs);
  try {
    const catalog = options.catalog ?? loadCatalog();
    const scan = await scanPaths(options.paths, { readStdin: options.readStdin });
    const ids = await stackProviders(
      scan.inputs.flatMap((input) => input.dependencies),
      catalog,
      options.dns,
      ownPackages(scan.inputs),
    );
    if (ids.length === 0) return undefined;
    // A short deadline leaves no room for long waits: fail fast and fall back to the index.
    const http = { timeoutMs: Math.min(deadlineMs, 5_000), maxRetries: 1, maxRetryAfterMs: 2_000, ...options.http };
    const publicOnly = options.publicOnly ? { publicOnly: options.publicOnly } : {};
    const worker = options.worker ?? builtWorker();
    const report = worker
      ? await syncInWorker(
          worker,
          { indexDir: options.indexDir, catalog: only(catalog, ids), providers: ids, http, deadline, ...publicOnly },
          controller.signal,
          deadlineMs / 1000,
        )
      : await runSync({
          indexDir: options.indexDir,
          catalog,
          providers: ids,
          signal: controller.signal,
          lockWaitMs: deadlineMs,
          http,
          ...publicOnly,
        });
    const failures = report.providers.filter((entry) => entry.outcome === 'failed');
    if (failures.length > 0) {
      const allFailed = failures.length === report.providers.filter((entry) => entry.outcome !== 'skipped').length;
      options.warn(
        text`warning: ${allFailed ? 'could not sync (offline?)' : `could not sync ${failures.length} of ${report.providers.length} providers`}; using the local index for ${failures.map((entry) => cleanLine(entry.provider, 60)).join(', ')}`,
      );
      for (const entry of failures.slice(0, 5)) options.warn(text`  ${providerLine(entry)}`);
    }
    return report;
  } catch (error) {
    options.warn(
      text`warning: could not sync before the check (${cleanLine((error as Error).message, 300)}); using the local index`,
    );
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

function builtWorker(): URL | undefined {
  const entry = new URL('./sync-worker.js', import.meta.url);
  return existsSync(fileURLToPath(entry)) ? entry : undefined;
}

function only(catalog: Catalog, ids: string[]): Catalog {
  const providers = new Map();
  for (const id of ids) {
    const provider = catalog.providers.get(id);
    if (provider) providers.set(id, provider);
  }
  return { providers };
}

/**
 * The sync in a worker thread, under the index lock this thread holds: the worker abandons its requests at the
 * deadline, and is ended shortly after whatever it is doing. Index files are replaced atomically, so ending it
 * mid-write leaves each one old or new; the lock is released here either way.
 */
async function syncInWorker(
  entry: URL,
  data: SyncWorkerData,
  signal: AbortSignal,
  seconds: number,
): Promise<SyncReport> {
  const left = () => Math.max(0, data.deadline - Date.now());
  const lock = await acquireLock(data.indexDir, { waitMs: left(), signal });
  const worker = new Worker(entry, { workerData: data });
  try {
    const outcome = await new Promise<SyncWorkerMessage | 'deadline'>((resolve, reject) => {
      const timer = setTimeout(() => resolve('deadline'), left() + WORKER_GRACE_MS);
      worker.once('message', (message: SyncWorkerMessage) => {
        clearTimeout(timer);
        resolve(message);
      });
      worker.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      worker.once('exit', (code) => {
        clearTimeout(timer);
        reject(new DownstackError(`the sync stopped unexpectedly (exit code ${code})`));
      });
    });
    if (outcome === 'deadline')
      throw new DownstackError(`the status pages were not fetched and read within the ${seconds} s deadline`);
    if ('error' in outcome) throw new DownstackError(outcome.error);
    return lock.recovered ? { ...outcome.report, lockRecovered: lock.recovered } : outcome.report;
  } finally {
    await worker.terminate();
    await lock.release();
  }
}
