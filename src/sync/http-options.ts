// The HTTP client's options and their defaults, apart from the client (src/sync/http.ts) so that the option table
// can show the defaults in `--help` without loading the client.
export interface HttpOptions {
  userAgent: string;
  /** Requests in flight overall. */
  concurrency: number;
  /** Requests in flight to one host. */
  perHost: number;
  /** Per attempt, covering the whole body (a slow trickle times out too). */
  timeoutMs: number;
  /** Decoded bytes; a bigger body is abandoned, not buffered. */
  maxBytes: number;
  /** Retries after the first attempt. */
  maxRetries: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** A Retry-After longer than this is not waited for: the request fails and says so. */
  maxRetryAfterMs: number;
  maxRedirects: number;
  /** Requests started per second to one host (a backfill's politeness budget); unlimited when absent. */
  ratePerHost?: number;
  /** Aborts everything still running or queued (the `check --sync` deadline). */
  signal?: AbortSignal;
  random?: () => number;
}

export const DEFAULT_HTTP: Omit<HttpOptions, 'userAgent'> = {
  concurrency: 8,
  perHost: 2,
  timeoutMs: 15_000,
  maxBytes: 32 * 1024 * 1024,
  maxRetries: 3,
  backoffBaseMs: 500,
  backoffMaxMs: 20_000,
  maxRetryAfterMs: 60_000,
  maxRedirects: 5,
};
