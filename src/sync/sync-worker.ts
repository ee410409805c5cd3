// The gate's sync in a worker thread (see check-sync.ts): the CLI holds the index lock and a deadline, and ends
// this thread at the deadline whatever it is doing, a long parse of a hostile status page included.
import { parentPort, workerData } from 'node:worker_threads';
import type { Catalog } from '../catalog/loader.js';
import type { HttpOptions } from './http.js';
import { runSync, type SyncReport } from './sync.js';

export interface SyncWorkerData {
  indexDir: string;
  catalog: Catalog;
  providers: string[];
  http: Partial<HttpOptions>;
  /** Epoch milliseconds: requests still running then are abandoned, so the report can say so. */
  deadline: number;
  /** Providers whose status pages must be on public addresses (those a repository defines itself). */
  publicOnly?: ReadonlySet<string>;
}

export type SyncWorkerMessage = { report: SyncReport } | { error: string };

const data = workerData as SyncWorkerData;
const controller = new AbortController();
setTimeout(() => controller.abort(), Math.max(0, data.deadline - Date.now())).unref();
runSync({
  indexDir: data.indexDir,
  catalog: data.catalog,
  providers: data.providers,
  http: data.http,
  signal: controller.signal,
  lockHeld: true,
  ...(data.publicOnly ? { publicOnly: data.publicOnly } : {}),
}).then(
  (report) => parentPort?.postMessage({ report } satisfies SyncWorkerMessage),
  (error: unknown) =>
    parentPort?.postMessage({ error: (error as Error).message ?? String(error) } satisfies SyncWorkerMessage),
);
