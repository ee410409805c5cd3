// `check --index-url URL`: incidents from an index a fleet's scheduled job published (`sync --publish`), instead of
// every CI job asking the status pages itself. The manifest is fetched once per run with a conditional request;
// a provider file is fetched only when its manifest hash differs from the cached copy, and is kept only when its size
// and sha256 match the manifest. Whatever fails — no network, a wrong hash, a cut-off file — the previous cached copy
// is kept, and without one the local index and the embedded snapshot answer. `describe()` says which was used.
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs-atomic.js';
import { cleanLine } from '../sanitize.js';
import { PoliteClient, type HttpOptions, type Validators } from '../sync/http.js';
import { IndexFileSchema } from './schema.js';
import { MANIFEST_NAME, ManifestSchema, sha256, type Manifest } from './publish.js';
import { IncidentIndex, type ProviderIncidents } from './store.js';

/** How the published index answered this run. */
export type PublishedState =
  /** The manifest was fetched (or confirmed unchanged with a 304). */
  | 'fresh'
  /** Unreachable or unreadable: the copy cached by an earlier run answered. */
  | 'cached'
  /** Unreachable or unreadable, and nothing cached: the local index answered. */
  | 'local';

export interface PublishedSource {
  kind: 'published';
  url: string;
  state: PublishedState;
  /** When the manifest that answered was published. */
  publishedAt?: string;
  /** Why the published index could not be used fresh. */
  reason?: string;
  /** Provider files downloaded this run, and those answered from the cache unchanged. */
  fetched: string[];
  cached: string[];
  /** Provider files refused (wrong hash, cut off, not an index file), with the reason. */
  refused: string[];
  /** Where the cache and the fallback local index live. */
  cacheDir: string;
  localDir: string;
}

export interface PublishedIndexOptions {
  url: string;
  /** The local index directory; the cache lives under it (`published/<hash of the URL>/`). */
  localDir: string;
  /** null leaves the embedded snapshot and the bundled history out. */
  snapshotDir?: string | null;
  /** Never ask the network (DOWNSTACK_OFFLINE=1): answer from the cache or the local index. */
  offline?: boolean;
  http?: Partial<HttpOptions> & { userAgent: string };
}

/** The manifest's validators, for the next run's conditional request. */
interface CacheMeta {
  url: string;
  manifest: Validators;
}

/** The manifest URL for what a user passed: the manifest itself or the directory that holds it. */
export function manifestUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.pathname.endsWith('.json')) return parsed.href;
  if (!parsed.pathname.endsWith('/')) parsed.pathname += '/';
  return new URL(MANIFEST_NAME, parsed).href;
}

export class PublishedIndex {
  readonly manifestUrl: string;
  readonly cacheDir: string;
  private readonly client: PoliteClient;
  private manifest?: Promise<{ manifest?: Manifest; state: PublishedState; reason?: string }>;
  private meta: CacheMeta;
  private readonly fetched: string[] = [];
  private readonly cachedHits: string[] = [];
  private readonly refused: string[] = [];
  private resolvedState?: { manifest?: Manifest; state: PublishedState; reason?: string };

  constructor(private readonly options: PublishedIndexOptions) {
    this.manifestUrl = manifestUrl(options.url);
    this.cacheDir = join(options.localDir, 'published', sha256(this.manifestUrl).slice(0, 16));
    this.client = new PoliteClient({
      userAgent: 'downstack',
      // A CI gate waits briefly: the fallback answers when the host is slow.
      timeoutMs: 10_000,
      maxRetries: 1,
      maxRetryAfterMs: 5_000,
      ...options.http,
    });
    this.meta = { url: this.manifestUrl, manifest: {} };
  }

  /** The provider's incidents from the published index, its cached copy, or the local index, in that order. */
  async read(provider: string): Promise<ProviderIncidents> {
    const { manifest, state } = await this.loadManifest();
    const snapshotDir = this.options.snapshotDir;
    const layered = (dir: string) =>
      snapshotDir === undefined
        ? new IncidentIndex(dir).read(provider)
        : new IncidentIndex(dir, snapshotDir).read(provider);
    if (state === 'local' || !manifest) return layered(this.options.localDir);
    const filesDir = join(this.cacheDir, 'providers');
    const entry = manifest.providers[provider];
    if (!entry) {
      // The publisher does not sync this provider: what ships with the package answers, not a stale cached file.
      await rm(join(filesDir, `${provider}.json`), { force: true });
      return layered(filesDir);
    }
    const cachedText = await readFile(join(filesDir, `${provider}.json`), 'utf8').catch(() => undefined);
    if (cachedText !== undefined && (state === 'cached' || sha256(cachedText) === entry.sha256)) {
      this.cachedHits.push(provider);
      return layered(filesDir);
    }
    if (state === 'cached') return layered(this.options.localDir);
    const refusal = await this.download(provider, new URL(entry.file, this.manifestUrl).href, entry);
    if (refusal) {
      this.refused.push(`${provider}: ${refusal}`);
      // The previous copy stays; without one, the local index answers for this provider.
      return layered(cachedText !== undefined ? filesDir : this.options.localDir);
    }
    this.fetched.push(provider);
    return layered(filesDir);
  }

  describe(): PublishedSource {
    return {
      kind: 'published',
      url: this.manifestUrl,
      state: this.resolvedState?.state ?? 'local',
      ...(this.resolvedState?.manifest ? { publishedAt: this.resolvedState.manifest.publishedAt } : {}),
      ...(this.resolvedState?.reason ? { reason: this.resolvedState.reason } : {}),
      fetched: [...this.fetched].sort(),
      cached: [...this.cachedHits].sort(),
      refused: [...this.refused].sort(),
      cacheDir: this.cacheDir,
      localDir: this.options.localDir,
    };
  }

  private loadManifest() {
    this.manifest ??= this.fetchManifest().then((result) => {
      this.resolvedState = result;
      return result;
    });
    return this.manifest;
  }

  private async fetchManifest(): Promise<{ manifest?: Manifest; state: PublishedState; reason?: string }> {
    const cached = await this.readCachedManifest();
    if (cached.meta) this.meta = cached.meta;
    const fallback = (reason: string) =>
      cached.manifest
        ? { manifest: cached.manifest, state: 'cached' as const, reason }
        : { state: 'local' as const, reason };
    if (this.options.offline) return fallback('DOWNSTACK_OFFLINE=1');
    const result = await this.client.get(this.manifestUrl, cached.manifest ? this.meta.manifest : {});
    if (result.kind === 'failed') return fallback(cleanLine(result.reason, 300));
    if (result.kind === 'not-modified') {
      if (cached.manifest) return { manifest: cached.manifest, state: 'fresh' };
      return fallback('answered 304 Not Modified, but no copy is cached');
    }
    const text = new TextDecoder().decode(result.body);
    const manifest = parseManifest(text);
    if (typeof manifest === 'string') return fallback(manifest);
    await mkdir(this.cacheDir, { recursive: true });
    await writeFileAtomic(join(this.cacheDir, MANIFEST_NAME), text);
    this.meta.manifest = result.validators;
    await this.saveMeta();
    return { manifest, state: 'fresh' };
  }

  private async readCachedManifest(): Promise<{ manifest?: Manifest; meta?: CacheMeta }> {
    const text = await readFile(join(this.cacheDir, MANIFEST_NAME), 'utf8').catch(() => undefined);
    const manifest = text === undefined ? undefined : parseManifest(text);
    const meta = await readFile(join(this.cacheDir, 'meta.json'), 'utf8')
      .then((raw) => JSON.parse(raw) as CacheMeta)
      .catch(() => undefined);
    return {
      ...(typeof manifest === 'object' ? { manifest } : {}),
      ...(meta && meta.url === this.manifestUrl && typeof meta.manifest === 'object' ? { meta } : {}),
    };
  }

  /** Downloads and checks one provider file; returns why it was refused, or undefined once it is cached. */
  private async download(
    provider: string,
    url: string,
    entry: Manifest['providers'][string],
  ): Promise<string | undefined> {
    const result = await this.client.get(url);
    if (result.kind === 'failed') return `${cleanLine(result.reason, 200)}`;
    if (result.kind === 'not-modified') return 'answered 304 Not Modified to an unconditional request';
    const bytes = result.body;
    if (bytes.byteLength !== entry.bytes)
      return `${bytes.byteLength} bytes where the manifest says ${entry.bytes} (cut off or replaced); kept the previous copy`;
    const hash = sha256(bytes);
    if (hash !== entry.sha256)
      return `sha256 ${hash.slice(0, 12)}… does not match the manifest's ${entry.sha256.slice(0, 12)}…; kept the previous copy`;
    const text = new TextDecoder().decode(bytes);
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      return `not JSON (${cleanLine((error as Error).message, 100)}); kept the previous copy`;
    }
    const checked = IndexFileSchema.safeParse(data);
    if (!checked.success || checked.data.provider !== provider) return 'not an index file for this provider';
    const dir = join(this.cacheDir, 'providers');
    await mkdir(dir, { recursive: true });
    await writeFileAtomic(join(dir, `${provider}.json`), text);
    return undefined;
  }

  private async saveMeta(): Promise<void> {
    await writeFileAtomic(join(this.cacheDir, 'meta.json'), `${JSON.stringify(this.meta)}\n`);
  }
}

function parseManifest(text: string): Manifest | string {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return `the manifest is not JSON (${cleanLine((error as Error).message, 100)})`;
  }
  const checked = ManifestSchema.safeParse(data);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    return `not a downstack index manifest (${issue?.path.join('.')}: ${cleanLine(issue?.message ?? '', 100)})`;
  }
  return checked.data;
}
