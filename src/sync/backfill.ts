// `downstack sync --backfill`: a Statuspage page's whole history, not just the newest 50 incidents. The history
// archive lists every incident code a quarter per page (statuspage-history.ts); each code not yet in the index is
// fetched from `/api/v2/incidents/{code}.json` and read with the same Statuspage reader as sync. Politely: one request
// per second per host by default, two in flight, the retries sync makes. Resumable: every record is journalled as it
// arrives (backfill-state.ts) and merged into the index file under the index lock at checkpoints, so Ctrl-C or a crash
// loses nothing and a re-run fetches nothing twice. Other platforms publish no deeper archive than what sync reads
// (Slack's history, Google Cloud's incidents.json), so for them a backfill is a sync.
import pLimit from 'p-limit';
import type { Catalog } from '../catalog/loader.js';
import type { Provider } from '../catalog/schema.js';
import { DownstackError, IndexError, ParseError } from '../errors.js';
import { acquireLock } from '../incidents/lock.js';
import { IncidentIndex } from '../incidents/store.js';
import type { Incident } from '../model.js';
import { finishDraft } from '../readers/finish.js';
import { parseStatuspage } from '../readers/formats/statuspage.js';
import { describeProblem } from '../readers/types.js';
import { cleanLine } from '../sanitize.js';
import { BackfillStore, type BackfillState } from './backfill-state.js';
import { decodeBody, sniffBody } from './decode.js';
import { type HttpOptions, type HttpStats, PoliteClient, type RequestOptions } from './http.js';
import { mergeIncidents } from './merge.js';
import { parseHistoryPage } from './statuspage-history.js';
import { runSync, type ProviderReport, userAgent } from './sync.js';

/** A quarter per page: 400 pages is a century. A page that keeps answering past that never ends. */
const MAX_PAGES = 400;
/** Four quarters in a row without an incident: the archive has ended (past the end it answers empty months). */
const EMPTY_PAGES_AT_END = 4;
/** Statuspage answers empty months dated 1996 past the end of an archive; nothing real is older than this. */
const OLDEST_ARCHIVE = '2000-01-01';
/** Fetched records between two merges into the index file; a crash in between is recovered from the journal. */
const CHECKPOINT_EVERY = 25;
/** Failed records named one by one; past this many the count says the rest. */
const MAX_FAILURE_WARNINGS = 5;

export type BackfillOutcome = 'backfilled' | 'up-to-date' | 'partial' | 'synced' | 'skipped' | 'failed';

export interface BackfillReport {
  provider: string;
  outcome: BackfillOutcome;
  reason?: string;
  /** History pages read this run. */
  pages: number;
  /** Records fetched this run, and incidents they added to the index. */
  fetched: number;
  added: number;
  /** Codes whose record answered 404 (reported by code; the rest is kept). */
  missing: string[];
  /** Codes still to fetch when the run stopped (the next run goes on with them). */
  left: number;
  warnings: string[];
}

export type BackfillEvent =
  | { type: 'page'; provider: string; page: number; month?: string; listed: number }
  | { type: 'record'; provider: string; done: number; total: number }
  | { type: 'done'; report: BackfillReport };

export interface BackfillOptions {
  indexDir: string;
  catalog: Catalog;
  providers: string[];
  /** Stop paging once the history's months are older than this. */
  since?: Date;
  /** Requests per second per host (default 1). */
  rate?: number;
  /** History pages read at most before the walk is called endless (default 400, a century of quarters). */
  maxPages?: number;
  http?: Partial<HttpOptions>;
  /** Providers defined by the repository's config: their pages must be on public addresses (as for sync). */
  publicOnly?: ReadonlySet<string>;
  /** Ctrl-C: stops asking, merges what was fetched, and leaves the rest for the next run. */
  signal?: AbortSignal;
  onEvent?: (event: BackfillEvent) => void;
  now?: () => Date;
}

export interface BackfillRun {
  providers: BackfillReport[];
  http: HttpStats;
}

export async function runBackfill(options: BackfillOptions): Promise<BackfillRun> {
  const now = options.now ?? (() => new Date());
  const client = new PoliteClient({
    userAgent: userAgent(),
    ...options.http,
    perHost: Math.min(2, options.http?.perHost ?? 2),
    ratePerHost: options.rate ?? 1,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const walkable: Provider[] = [];
  const others: string[] = [];
  const reports: BackfillReport[] = [];
  for (const id of options.providers) {
    const provider = options.catalog.providers.get(id);
    if (!provider) reports.push(empty(id, 'skipped', 'not in the catalog'));
    else if (provider.status.platform === 'statuspage') walkable.push(provider);
    else others.push(id);
  }
  // Hosts are paced apart by the client, so several pages can be walked at once.
  const limit = pLimit(4);
  const walked = await Promise.all(
    walkable.map((provider) =>
      limit(async () => {
        const report = await isolated(provider.id, () => backfillProvider(provider, client, options, now));
        options.onEvent?.({ type: 'done', report });
        return report;
      }),
    ),
  );
  reports.push(...walked);
  if (others.length > 0 && !options.signal?.aborted) {
    const synced = await runSync({
      indexDir: options.indexDir,
      catalog: options.catalog,
      providers: others,
      ...(options.http ? { http: options.http } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.publicOnly ? { publicOnly: options.publicOnly } : {}),
    });
    for (const entry of synced.providers) {
      const report = fromSync(entry, options.catalog.providers.get(entry.provider));
      options.onEvent?.({ type: 'done', report });
      reports.push(report);
    }
    for (const key of Object.keys(client.stats) as Array<keyof HttpStats>) client.stats[key] += synced.http[key];
  }
  return { providers: reports, http: { ...client.stats } };
}

async function backfillProvider(
  provider: Provider,
  client: PoliteClient,
  options: BackfillOptions,
  now: () => Date,
): Promise<BackfillReport> {
  const store = new BackfillStore(options.indexDir, provider.id);
  // One backfill per provider at a time; the index itself is only locked while a checkpoint writes it.
  let held: Awaited<ReturnType<typeof acquireLock>>;
  try {
    held = await acquireLock(store.dir, { waitMs: 0 });
  } catch (error) {
    if (error instanceof DownstackError) return empty(provider.id, 'skipped', 'another backfill of it is running');
    throw error;
  }
  try {
    return await new ProviderBackfill(provider, client, options, now, store).run();
  } finally {
    await held.release();
  }
}

class ProviderBackfill {
  private readonly base: string;
  private readonly index: IncidentIndex;
  private readonly report: BackfillReport;
  private readonly known = new Set<string>();
  private readonly request: RequestOptions;
  private sinceCheckpoint = 0;
  private failures = 0;
  private state!: BackfillState;

  constructor(
    private readonly provider: Provider,
    private readonly client: PoliteClient,
    private readonly options: BackfillOptions,
    private readonly now: () => Date,
    private readonly store: BackfillStore,
  ) {
    this.base = provider.status.url.replace(/\/+$/, '');
    this.request = {
      accept: 'application/json',
      ...(options.publicOnly?.has(provider.id) ? { publicOnly: true } : {}),
    };
    this.index = new IncidentIndex(options.indexDir);
    this.report = empty(provider.id, 'up-to-date');
  }

  async run(): Promise<BackfillReport> {
    this.state = await this.store.readState();
    const previous = await this.index.readIndexFile(this.provider.id);
    for (const incident of previous?.incidents ?? []) this.known.add(incident.id);
    for (const code of this.state.missing) this.known.add(code);
    // What a killed run fetched but never merged goes into the index first.
    await this.checkpoint();

    const walked = await this.walk();
    const pending = [...new Set(this.state.pending)].filter((code) => !this.known.has(code));
    await this.fetchAll(pending);
    await this.checkpoint();

    this.state.pending = pending.filter((code) => !this.known.has(code));
    if (this.failures > MAX_FAILURE_WARNINGS)
      this.report.warnings.push(
        `and ${this.failures - MAX_FAILURE_WARNINGS} more records failed; left for the next run`,
      );
    await this.store.saveState(this.state);
    this.report.left = this.state.pending.length;
    this.report.missing = [...new Set(this.report.missing)];
    if (this.report.outcome === 'failed' || this.report.outcome === 'skipped') return this.report;
    if (this.report.left > 0 || walked === 'cut') this.report.outcome = 'partial';
    else if (this.report.fetched > 0) this.report.outcome = 'backfilled';
    return this.report;
  }

  /** Reads history pages until the archive ends, `--since` is passed, or (after a complete walk) known ground. */
  private async walk(): Promise<'end' | 'since' | 'known' | 'cut'> {
    const incremental = this.state.walked;
    const listed = new Set([...this.known, ...this.state.pending]);
    let page = incremental ? 1 : this.state.nextPage;
    const since = this.options.since?.toISOString().slice(0, 10);
    const seenPages = new Map<string, number>();
    let emptyRun = 0;
    const maxPages = this.options.maxPages ?? MAX_PAGES;
    for (; page <= maxPages; page++) {
      if (this.options.signal?.aborted) return 'cut';
      const url = `${this.base}/history?page=${page}`;
      const result = await this.client.get(url, {}, this.request);
      this.report.pages++;
      if (result.kind !== 'ok') {
        const reason = result.kind === 'failed' ? result.reason : 'answered 304 to an unconditional request';
        if (page === 1 && result.kind === 'failed' && result.status === 404) {
          this.fail('skipped', `${url}: 404 — this page publishes no history archive; only sync's newest incidents`);
          return 'cut';
        }
        this.report.warnings.push(`${url}: ${reason}; the walk stops here and the next run goes on from page ${page}`);
        return 'cut';
      }
      const text = decodeBody(result.body, result.contentType);
      let parsed: ReturnType<typeof parseHistoryPage>;
      try {
        if (sniffBody(text) !== 'json') throw new ParseError(url, 1, 'answered HTML, not its history as JSON');
        parsed = parseHistoryPage(text, url);
      } catch (error) {
        if (!(error instanceof ParseError)) throw error;
        if (page === 1) {
          this.fail('skipped', `${error.located}; this page does not serve its history archive`);
          return 'cut';
        }
        this.report.warnings.push(`${error.located}; the walk stops here and the next run goes on from page ${page}`);
        return 'cut';
      }
      for (const code of parsed.refused)
        this.report.warnings.push(`${url}: code "${cleanLine(code, 60)}" is not an incident id; not fetched`);
      const fingerprint = parsed.entries.map((entry) => entry.code).join(',');
      if (fingerprint !== '' && seenPages.has(fingerprint)) {
        this.report.warnings.push(
          `${url}: repeats page ${seenPages.get(fingerprint)} (the page ignores ?page=); the walk stops here`,
        );
        return this.reachedEnd();
      }
      seenPages.set(fingerprint, page);
      const inRange = parsed.entries.filter((entry) => !since || !entry.month || entry.month >= monthOf(since));
      const fresh = inRange.filter((entry) => !listed.has(entry.code)).map((entry) => entry.code);
      for (const code of fresh) listed.add(code);
      this.state.pending.push(...fresh);
      this.options.onEvent?.({
        type: 'page',
        provider: this.provider.id,
        page,
        ...(parsed.months[0] ? { month: parsed.months[0] } : {}),
        listed: parsed.entries.length,
      });
      if (!incremental) this.state.nextPage = page + 1;
      await this.store.saveState(this.state);
      emptyRun = parsed.entries.length === 0 ? emptyRun + 1 : 0;
      const newest = parsed.months[0];
      if (emptyRun >= EMPTY_PAGES_AT_END || (newest !== undefined && newest < OLDEST_ARCHIVE)) return this.reachedEnd();
      if (since && parsed.months.length > 0 && parsed.months.every((month) => month < monthOf(since))) return 'since';
      if (incremental && parsed.entries.length > 0 && fresh.length === 0) return 'known';
    }
    this.report.warnings.push(`${this.base}/history: still answering after ${maxPages} pages; the walk stops here`);
    return 'cut';
  }

  /** Saved at once, so a run killed while fetching does not walk the archive again. */
  private async reachedEnd(): Promise<'end'> {
    this.state.walked = true;
    await this.store.saveState(this.state);
    return 'end';
  }

  private async fetchAll(codes: string[]): Promise<void> {
    let done = 0;
    // The client keeps to the rate and to two in flight for the host; a queue here only keeps memory flat.
    const limit = pLimit(2);
    const write = pLimit(1);
    await Promise.all(
      codes.map((code) =>
        limit(async () => {
          if (this.options.signal?.aborted) return;
          const url = `${this.base}/api/v2/incidents/${encodeURIComponent(code)}.json`;
          const result = await this.client.get(url, {}, this.request);
          await write(async () => {
            if (result.kind === 'failed' && result.status === 404) {
              this.state.missing.push(code);
              this.report.missing.push(code);
              this.known.add(code);
            } else if (result.kind === 'failed') {
              // Left pending for the next run; a host in trouble is not asked again this run (the client stops).
              if (!this.options.signal?.aborted && ++this.failures <= MAX_FAILURE_WARNINGS)
                this.report.warnings.push(`${url}: ${result.reason}; left for the next run`);
            } else if (result.kind === 'ok') {
              await this.keep(code, this.read(url, decodeBody(result.body, result.contentType)));
            }
            this.options.onEvent?.({ type: 'record', provider: this.provider.id, done: ++done, total: codes.length });
          });
        }),
      ),
    );
  }

  /** Journals a record's incidents the moment they are read; undefined (unreadable) leaves the code pending. */
  private async keep(code: string, incidents: Incident[] | undefined): Promise<void> {
    if (!incidents) return;
    await this.store.append(code, incidents);
    this.known.add(code);
    this.report.fetched++;
    if (++this.sinceCheckpoint >= CHECKPOINT_EVERY) await this.checkpoint();
  }

  /**
   * One record through the Statuspage reader, as sync reads it. A record that is not JSON (cut off on the way) is
   * left for the next run; one whose entries cannot be stored is done, with its problems as warnings.
   */
  private read(url: string, text: string): Incident[] | undefined {
    const componentNames = new Map<string, string>();
    for (const component of this.provider.components)
      if (component.id) componentNames.set(component.id, component.name);
    const context = {
      source: url,
      pageUrl: this.base,
      componentNames,
      ...(this.provider.regions ? { regions: new Set(this.provider.regions) } : {}),
    };
    try {
      const parsed = parseStatuspage(text, context);
      for (const problem of parsed.problems) this.report.warnings.push(describeProblem(url, problem));
      const incidents: Incident[] = [];
      for (const draft of parsed.drafts) {
        const finished = finishDraft(draft, {
          provider: this.provider.id,
          entry: this.provider,
          source: url,
          pageUrl: this.base,
        });
        if ('provider' in finished) incidents.push(finished);
        else this.report.warnings.push(describeProblem(url, finished));
      }
      return incidents;
    } catch (error) {
      if (error instanceof ParseError) {
        this.report.warnings.push(`${error.located}; left for the next run`);
        return undefined;
      }
      throw error;
    }
  }

  /** Merges this run's records and any journal a killed run left into the index file, under the index lock. */
  private async checkpoint(): Promise<void> {
    const journals = await this.store.readJournals();
    if (journals.files.length === 0) return;
    for (const code of journals.codes) this.known.add(code);
    const lock = await acquireLock(this.options.indexDir, { waitMs: 60_000 });
    try {
      const previous = await this.index.readIndexFile(this.provider.id);
      const merged = mergeIncidents(
        previous?.incidents ?? [],
        [{ source: `${this.base}/api/v2/incidents`, incidents: journals.incidents, listsAllOpen: false, rank: 3 }],
        this.now().toISOString(),
      );
      await this.index.write({
        ...(previous ?? { schemaVersion: 1, provider: this.provider.id }),
        incidents: merged.incidents,
      });
      this.report.added += merged.added;
    } finally {
      await lock.release();
    }
    await this.store.remove(journals.files);
    this.sinceCheckpoint = 0;
  }

  private fail(outcome: 'failed' | 'skipped', reason: string): void {
    this.report.outcome = outcome;
    this.report.reason = cleanLine(reason, 300);
  }
}

/** Any failure of one provider is that provider's outcome; its index file is left as the last checkpoint wrote it. */
async function isolated(provider: string, work: () => Promise<BackfillReport>): Promise<BackfillReport> {
  try {
    return await work();
  } catch (error) {
    const message =
      error instanceof DownstackError || error instanceof IndexError
        ? error.message
        : `unexpected error: ${(error as Error).message ?? String(error)}`;
    return empty(provider, 'failed', `${message}; what was fetched before is kept`);
  }
}

function fromSync(entry: ProviderReport, provider: Provider | undefined): BackfillReport {
  const platform = provider?.status.platform ?? 'its platform';
  const outcome = entry.outcome === 'failed' || entry.outcome === 'skipped' ? entry.outcome : 'synced';
  return {
    ...empty(entry.provider, outcome, entry.reason ?? `${platform} publishes no archive deeper than what sync reads`),
    added: entry.added,
    warnings: entry.warnings,
  };
}

function empty(provider: string, outcome: BackfillOutcome, reason?: string): BackfillReport {
  return {
    provider,
    outcome,
    ...(reason ? { reason: cleanLine(reason, 300) } : {}),
    pages: 0,
    fetched: 0,
    added: 0,
    missing: [],
    left: 0,
    warnings: [],
  };
}

function monthOf(day: string): string {
  return `${day.slice(0, 7)}-01`;
}
