// The only way sync talks to the network: bounded concurrency (overall and per host), a timeout per attempt,
// a few jittered retries that honour Retry-After, conditional GET, a size cap and http(s)-only redirects.
// Status pages are fetched most when they are struggling, so every limit here errs on the side of asking less.
import pLimit from 'p-limit';
import { DEFAULT_HTTP, type HttpOptions } from './http-options.js';
import { notPublicReason } from './public-address.js';

export { DEFAULT_HTTP, type HttpOptions } from './http-options.js';

export interface Validators {
  etag?: string;
  lastModified?: string;
}

export type FetchResult =
  | {
      kind: 'ok';
      url: string;
      finalUrl: string;
      status: number;
      body: Uint8Array;
      contentType?: string;
      validators: Validators;
      attempts: number;
    }
  | { kind: 'not-modified'; url: string; attempts: number }
  | { kind: 'failed'; url: string; reason: string; status?: number; attempts: number };

export interface HttpStats {
  requests: number;
  retries: number;
  notModified: number;
  bytes: number;
}

interface HostState {
  limit: ReturnType<typeof pLimit>;
  /** No request to this host starts before this time (set from Retry-After). */
  blockedUntil: number;
  /** Requests that failed for good in a row; past the threshold the host is not asked again this run. */
  consecutiveFailures: number;
  /** The earliest time the next attempt may start under `ratePerHost`. */
  nextSlot: number;
}

export interface RequestOptions {
  /** Replaces the Accept header: some pages choose JSON or HTML from it (Statuspage's /history). */
  accept?: string;
  /** Refuse the URL, and any redirect, that does not lead to a public address. */
  publicOnly?: boolean;
}

const DEFAULT_ACCEPT =
  'application/json, application/rss+xml, application/atom+xml;q=0.9, application/xml;q=0.8, text/xml;q=0.8, */*;q=0.1';

const RETRYABLE_STATUS = new Set([408, 425, 429, 500, 502, 503, 504]);
/** After this many requests to a host failed for good in a row, the rest fail fast instead of piling on. */
const HOST_FAILURE_LIMIT = 2;
/** This many connection failures before any server answered at all means there is no network to use. */
const OFFLINE_AFTER = 6;

class AttemptError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
    readonly retryAfterMs?: number,
    /** No server answered (DNS, refused, unreachable, connect timeout). */
    readonly noAnswer = false,
  ) {
    super(message);
  }
}

export class PoliteClient {
  readonly stats: HttpStats = { requests: 0, retries: 0, notModified: 0, bytes: 0 };
  readonly options: HttpOptions;
  private readonly global: ReturnType<typeof pLimit>;
  private readonly hosts = new Map<string, HostState>();
  private firstAttempts = 0;
  private answered = false;
  private noAnswerFailures = 0;
  private firstNoAnswer = '';

  constructor(options: Partial<HttpOptions> & { userAgent: string }) {
    this.options = { ...DEFAULT_HTTP, ...options };
    this.global = pLimit(Math.max(1, this.options.concurrency));
  }

  /**
   * GETs `url` (conditionally when validators are given); never throws — a failure is a result with a reason.
   * `publicOnly` refuses the URL, and any redirect, that does not lead to a public address.
   */
  async get(url: string, validators: Validators = {}, request: RequestOptions = {}): Promise<FetchResult> {
    const host = this.host(url);
    if (!host) return { kind: 'failed', url, reason: 'not an http(s) URL', attempts: 0 };
    const check = request.publicOnly ? notPublicReason : undefined;
    // The host slot is taken before the global one, so a queue for one slow host never holds global slots.
    return host.limit(() => this.global(() => this.withRetries(url, validators, host, request, check)));
  }

  private host(url: string): HostState | undefined {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    let state = this.hosts.get(parsed.host);
    if (!state) {
      state = {
        limit: pLimit(Math.max(1, this.options.perHost)),
        blockedUntil: 0,
        consecutiveFailures: 0,
        nextSlot: 0,
      };
      this.hosts.set(parsed.host, state);
    }
    return state;
  }

  /** Retries are a shared budget: a run never retries more than a fifth of what it asked, plus a few. */
  private retryBudgetLeft(): boolean {
    return this.stats.retries < 5 + Math.ceil(this.firstAttempts * 0.2);
  }

  /** Waits for the host's next slot under `ratePerHost` (reserved before waiting, so concurrent requests queue). */
  private async paced(host: HostState): Promise<boolean> {
    const rate = this.options.ratePerHost;
    if (!rate || rate <= 0) return true;
    const start = Math.max(Date.now(), host.nextSlot);
    host.nextSlot = start + 1000 / rate;
    const wait = start - Date.now();
    return wait <= 0 || sleep(wait, this.options.signal);
  }

  private async withRetries(
    url: string,
    validators: Validators,
    host: HostState,
    request: RequestOptions,
    check?: (url: string) => Promise<string | undefined>,
  ): Promise<FetchResult> {
    const hostName = new URL(url).host;
    if (!this.answered && this.noAnswerFailures >= OFFLINE_AFTER) {
      return {
        kind: 'failed',
        url,
        reason: `not asked: the network looks unreachable (${this.noAnswerFailures} connections failed, none answered; first: ${this.firstNoAnswer})`,
        attempts: 0,
      };
    }
    if (host.consecutiveFailures >= HOST_FAILURE_LIMIT) {
      return {
        kind: 'failed',
        url,
        reason: `not asked: ${hostName} failed ${host.consecutiveFailures} requests in a row during this sync`,
        attempts: 0,
      };
    }
    this.firstAttempts++;
    let attempts = 0;
    for (;;) {
      const wait = host.blockedUntil - Date.now();
      if (wait > 0) {
        if (wait > this.options.maxRetryAfterMs)
          return this.fail(host, {
            kind: 'failed',
            url,
            reason: `${hostName} asked to wait ${Math.ceil(wait / 1000)} s; not waiting that long`,
            attempts,
          });
        const slept = await sleep(wait, this.options.signal);
        if (!slept) return { kind: 'failed', url, reason: 'deadline reached', attempts };
      }
      if (!(await this.paced(host)) || this.options.signal?.aborted)
        return { kind: 'failed', url, reason: 'deadline reached', attempts };
      attempts++;
      this.stats.requests++;
      try {
        const result = await this.attempt(url, validators, attempts, request, check);
        host.consecutiveFailures = 0;
        return result;
      } catch (error) {
        const failure = error instanceof AttemptError ? error : new AttemptError(describe(error), true);
        if (this.options.signal?.aborted) return { kind: 'failed', url, reason: 'deadline reached', attempts };
        if (failure.noAnswer) {
          this.noAnswerFailures++;
          this.firstNoAnswer ||= failure.message;
          if (!this.answered && this.noAnswerFailures >= OFFLINE_AFTER)
            return this.fail(host, {
              kind: 'failed',
              url,
              reason: `${failure.message}; the network looks unreachable`,
              attempts,
            });
        }
        if (failure.retryAfterMs !== undefined)
          host.blockedUntil = Math.max(host.blockedUntil, Date.now() + failure.retryAfterMs);
        const retriesLeft = attempts <= this.options.maxRetries && failure.retryable && this.retryBudgetLeft();
        if (!retriesLeft) {
          const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
          const result: FetchResult = {
            kind: 'failed',
            url,
            reason: `${failure.message}${tries}`,
            status: failure.status,
            attempts,
          };
          // Only trouble on the server's side (5xx, 429, timeouts) counts against the host; a 404 does not.
          return failure.retryable ? this.fail(host, result) : result;
        }
        if (failure.retryAfterMs !== undefined && failure.retryAfterMs > this.options.maxRetryAfterMs) {
          return this.fail(host, {
            kind: 'failed',
            url,
            reason: `${failure.message}; asked to retry after ${Math.ceil(failure.retryAfterMs / 1000)} s, not waiting that long`,
            status: failure.status,
            attempts,
          });
        }
        this.stats.retries++;
        // Full jitter: many clients retrying at once spread out instead of arriving together.
        const random = this.options.random ?? Math.random;
        const backoff =
          Math.min(this.options.backoffMaxMs, this.options.backoffBaseMs * 2 ** (attempts - 1)) * random();
        // A Retry-After is a floor, spread a little so everyone told "60" does not come back in the same second.
        const delay =
          failure.retryAfterMs !== undefined
            ? Math.max(backoff, failure.retryAfterMs + random() * Math.min(1_000, failure.retryAfterMs * 0.1))
            : backoff;
        if (!(await sleep(delay, this.options.signal)))
          return { kind: 'failed', url, reason: 'deadline reached', attempts };
      }
    }
  }

  private fail(host: HostState, result: FetchResult): FetchResult {
    host.consecutiveFailures++;
    return result;
  }

  private async attempt(
    url: string,
    validators: Validators,
    attempts: number,
    request: RequestOptions,
    check?: (url: string) => Promise<string | undefined>,
  ): Promise<FetchResult> {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), this.options.timeoutMs);
    const signal = this.options.signal ? AbortSignal.any([timeout.signal, this.options.signal]) : timeout.signal;
    try {
      let current = url;
      for (let redirects = 0; ; redirects++) {
        const headers: Record<string, string> = {
          'user-agent': this.options.userAgent,
          accept: request.accept ?? DEFAULT_ACCEPT,
          'accept-encoding': 'gzip, br',
        };
        // Validators belong to the URL they were issued for, not to a redirect target.
        if (current === url && validators.etag) headers['if-none-match'] = validators.etag;
        if (current === url && validators.lastModified) headers['if-modified-since'] = validators.lastModified;
        const refused = await check?.(current);
        if (refused)
          throw new AttemptError(
            `${refused}: a status page defined in the repository must be public (--allow-private-endpoints allows it)`,
            false,
          );
        let response: Response;
        try {
          response = await fetch(current, { headers, redirect: 'manual', signal });
        } catch (error) {
          throw new AttemptError(
            timeout.signal.aborted ? `timed out after ${this.options.timeoutMs / 1000} s` : describe(error),
            true,
            undefined,
            undefined,
            true,
          );
        }
        this.answered = true;
        if (response.status >= 300 && response.status < 400 && response.status !== 304) {
          await response.body?.cancel().catch(() => undefined);
          const location = response.headers.get('location');
          if (!location) throw new AttemptError(`HTTP ${response.status} without a Location`, false, response.status);
          if (redirects >= this.options.maxRedirects)
            throw new AttemptError(`more than ${this.options.maxRedirects} redirects`, false, response.status);
          const next = new URL(location, current);
          if (next.protocol !== 'http:' && next.protocol !== 'https:')
            throw new AttemptError(`redirect to a non-http(s) URL (${next.protocol}) refused`, false, response.status);
          if (new URL(current).protocol === 'https:' && next.protocol === 'http:')
            throw new AttemptError(`redirect from https to http (${next.host}) refused`, false, response.status);
          current = next.href;
          continue;
        }
        if (response.status === 304) {
          await response.body?.cancel().catch(() => undefined);
          this.stats.notModified++;
          return { kind: 'not-modified', url, attempts };
        }
        if (response.status < 200 || response.status >= 300) {
          await response.body?.cancel().catch(() => undefined);
          const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
          throw new AttemptError(
            `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`,
            RETRYABLE_STATUS.has(response.status),
            response.status,
            retryAfter,
          );
        }
        const body = await this.readBody(response, timeout.signal);
        this.stats.bytes += body.byteLength;
        const etag = response.headers.get('etag') ?? undefined;
        const lastModified = response.headers.get('last-modified') ?? undefined;
        return {
          kind: 'ok',
          url,
          finalUrl: current,
          status: response.status,
          body,
          contentType: response.headers.get('content-type') ?? undefined,
          validators: { ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) },
          attempts,
        };
      }
    } finally {
      clearTimeout(timer);
    }
  }

  private async readBody(response: Response, timeoutSignal: AbortSignal): Promise<Uint8Array> {
    const max = this.options.maxBytes;
    const declared = Number(response.headers.get('content-length'));
    // A declared length is of the encoded body; it only proves too much when nothing is compressed.
    if (Number.isFinite(declared) && declared > max && !response.headers.get('content-encoding')) {
      await response.body?.cancel().catch(() => undefined);
      throw new AttemptError(`response is ${formatSize(declared)}, over the ${formatSize(max)} limit`, false);
    }
    if (!response.body) return new Uint8Array();
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        total += value.byteLength;
        if (total > max) {
          await reader.cancel().catch(() => undefined);
          throw new AttemptError(`response is over the ${formatSize(max)} limit`, false);
        }
        chunks.push(value);
      }
    } catch (error) {
      if (error instanceof AttemptError) throw error;
      throw new AttemptError(
        timeoutSignal.aborted
          ? `timed out after ${this.options.timeoutMs / 1000} s while reading the body`
          : `body cut off: ${describe(error)}`,
        true,
      );
    }
    const body = new Uint8Array(total);
    let offset = 0;
    for (const chunk of chunks) {
      body.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return body;
  }
}

/** Seconds or an HTTP date → milliseconds from now; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `${cause.code}${cause.message ? ` (${cause.message})` : ''}`;
  return (error as Error).message ?? String(error);
}

export function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round(bytes / (1024 * 1024))} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
