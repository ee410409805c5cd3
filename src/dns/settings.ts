// How a run resolves DNS, decided once by the CLI (flags, DOWNSTACK_RESOLVER, DOWNSTACK_OFFLINE) and kept light:
// every command imports this, and nothing here touches the network (node:net is loaded only to read an address given).
import { createRequire } from 'node:module';

export interface DnsSettings {
  resolve: boolean;
  /** Why lookups are off (`--no-resolve`, `DOWNSTACK_OFFLINE=1`), said once in the report. */
  skipped?: string;
  /** `HOST[:PORT]` of the server to ask; the system's resolvers when absent. */
  server?: string;
  queryTimeoutMs?: number;
  deadlineMs?: number;
}

export const DNS_DEFAULTS = { queryTimeoutMs: 2_000, deadlineMs: 10_000, concurrency: 16 } as const;

/** `1.2.3.4`, `1.2.3.4:5353`, `::1`, `[::1]:5353`: what `--resolver` and DOWNSTACK_RESOLVER take. */
export function parseResolverAddress(text: string): { host: string; port?: number } | undefined {
  const value = text.trim();
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(value);
  const plain = /^([^:]+)(?::(\d+))?$/.exec(value);
  const [host, port] = bracketed
    ? [bracketed[1] ?? '', bracketed[2]]
    : plain
      ? [plain[1] ?? '', plain[2]]
      : [value, undefined];
  if (!(createRequire(import.meta.url)('node:net') as typeof import('node:net')).isIP(host)) return undefined;
  const portNumber = port === undefined ? undefined : Number(port);
  if (portNumber !== undefined && (portNumber < 1 || portNumber > 65_535)) return undefined;
  return { host, ...(portNumber ? { port: portNumber } : {}) };
}
