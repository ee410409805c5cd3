// DNS lookups for one run: Node's resolver (c-ares: UDP, falling back to TCP when an answer is truncated), at most
// 16 queries in flight, 2 s per query, one total deadline after which every pending query is cancelled, and one
// cache so a name asked twice (a registrable domain behind many hosts) is asked once.
import { Resolver } from 'node:dns/promises';
import pLimit from 'p-limit';
import { DNS_DEFAULTS, parseResolverAddress } from './settings.js';

export type RecordKind = 'CNAME' | 'A' | 'AAAA' | 'NS' | 'MX' | 'TXT';

export type LookupFailure = 'NXDOMAIN' | 'SERVFAIL' | 'REFUSED' | 'TIMEOUT' | 'DEADLINE' | 'BADRESP' | 'ERROR';

/** No records of the kind asked for is an empty answer, not a failure. */
export type LookupResult = { ok: true; values: string[] } | { ok: false; failure: LookupFailure; message: string };

export interface DnsClientOptions {
  /** `HOST[:PORT]` of the server to ask (an IP address); the system's resolvers when absent. */
  server?: string;
  queryTimeoutMs?: number;
  /** Everything still pending this long after the client was made is cancelled and reported as DEADLINE. */
  deadlineMs?: number;
  concurrency?: number;
}

export interface DnsClient {
  lookup(kind: RecordKind, name: string): Promise<LookupResult>;
  /** Queries actually sent (cache hits not counted). */
  readonly queries: number;
  readonly server: string;
  readonly queryTimeoutMs: number;
  /** Stops the deadline timer and cancels anything still pending. */
  close(): void;
}

const FAILURES: Record<string, LookupFailure> = {
  ENOTFOUND: 'NXDOMAIN',
  ESERVFAIL: 'SERVFAIL',
  EREFUSED: 'REFUSED',
  ETIMEOUT: 'TIMEOUT',
  ECANCELLED: 'DEADLINE',
  EBADRESP: 'BADRESP',
  EFORMERR: 'BADRESP',
  EBADNAME: 'BADRESP',
};

export function createDnsClient(options: DnsClientOptions = {}): DnsClient {
  const timeout = options.queryTimeoutMs ?? DNS_DEFAULTS.queryTimeoutMs;
  // One try: a query gets its 2 s, and c-ares would double the wait on each retry.
  const resolver = new Resolver({ timeout, tries: 1 });
  if (options.server) {
    const address = parseResolverAddress(options.server);
    if (!address) throw new Error(`not a resolver address: "${options.server}" (expected HOST[:PORT] with an IP)`);
    const host = address.host.includes(':') ? `[${address.host}]` : address.host;
    resolver.setServers([address.port ? `${host}:${address.port}` : address.host]);
  }
  const server = resolver.getServers().join(', ') || 'the system resolver';
  const limit = pLimit(options.concurrency ?? DNS_DEFAULTS.concurrency);
  const cache = new Map<string, Promise<LookupResult>>();
  let expired = false;
  let queries = 0;
  const timer = setTimeout(() => {
    expired = true;
    resolver.cancel();
  }, options.deadlineMs ?? DNS_DEFAULTS.deadlineMs);
  timer.unref();

  const query = async (kind: RecordKind, name: string): Promise<LookupResult> => {
    if (expired) return { ok: false, failure: 'DEADLINE', message: 'the DNS deadline passed' };
    queries++;
    try {
      return { ok: true, values: await ask(resolver, kind, name) };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (code === 'ENODATA') return { ok: true, values: [] };
      if (expired && code === 'ECANCELLED')
        return { ok: false, failure: 'DEADLINE', message: 'the DNS deadline passed' };
      return { ok: false, failure: FAILURES[code] ?? 'ERROR', message: code || (error as Error).message };
    }
  };

  return {
    lookup(kind, name) {
      const key = `${kind} ${name.toLowerCase()}`;
      let pending = cache.get(key);
      if (!pending) {
        pending = limit(() => query(kind, name));
        cache.set(key, pending);
      }
      return pending;
    },
    get queries() {
      return queries;
    },
    server,
    queryTimeoutMs: timeout,
    close() {
      clearTimeout(timer);
      expired = true;
      resolver.cancel();
    },
  };
}

async function ask(resolver: Resolver, kind: RecordKind, name: string): Promise<string[]> {
  switch (kind) {
    case 'CNAME':
      return resolver.resolveCname(name);
    case 'A':
      return resolver.resolve4(name);
    case 'AAAA':
      return resolver.resolve6(name);
    case 'NS':
      return resolver.resolveNs(name);
    case 'MX':
      return (await resolver.resolveMx(name)).sort((a, b) => a.priority - b.priority).map((mx) => mx.exchange);
    case 'TXT':
      // A TXT record arrives in chunks of at most 255 bytes; its meaning is their concatenation (RFC 7208 §3.3).
      return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''));
  }
}
