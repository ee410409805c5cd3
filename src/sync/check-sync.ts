// `check --sync`: a short sync of the stack's providers before the check reads the index. It must never break a
// deploy: whatever goes wrong (offline, a lock held, a deadline) becomes a warning and the local index is used.
import { loadCatalog, type Catalog } from '../catalog/loader.js';
import { buildMatcher, exposuresFor } from '../catalog/matcher.js';
import type { DnsStage } from '../dns/stage.js';
import { scanPaths } from '../scan.js';
import { cleanLine, type SafeText, text } from '../sanitize.js';
import { providerLine } from './progress.js';
import { runSync, type SyncReport } from './sync.js';

/**
 * The providers a stack is exposed to, upstream ones (runsOn) included, as `check` would find them (with the DNS
 * of its own domains when a DNS stage is given).
 */
export async function stackProviders(
  dependencies: Parameters<typeof exposuresFor>[0],
  catalog: Catalog,
  dns?: DnsStage,
): Promise<string[]> {
  const matcher = buildMatcher(catalog);
  const found = dns ? (await dns.resolve(dependencies, matcher)).found : [];
  const { exposures } = exposuresFor([...dependencies, ...found], matcher, catalog);
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
}

/** Syncs the stack's providers under a short deadline; never throws. */
export async function syncBeforeCheck(options: CheckSyncOptions): Promise<SyncReport | undefined> {
  const deadlineMs = options.deadlineMs ?? 8_000;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), deadlineMs);
  try {
    const catalog = options.catalog ?? loadCatalog();
    const scan = await scanPaths(options.paths, { readStdin: options.readStdin });
    const ids = await stackProviders(
      scan.inputs.flatMap((input) => input.dependencies),
      catalog,
      options.dns,
    );
    if (ids.length === 0) return undefined;
    const report = await runSync({
      indexDir: options.indexDir,
      catalog,
      providers: ids,
      signal: controller.signal,
      lockWaitMs: deadlineMs,
      ...(options.publicOnly ? { publicOnly: options.publicOnly } : {}),
      // A short deadline leaves no room for long waits: fail fast and fall back to the index.
      http: { timeoutMs: Math.min(deadlineMs, 5_000), maxRetries: 1, maxRetryAfterMs: 2_000, ...options.http },
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
