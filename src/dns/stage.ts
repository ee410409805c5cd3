// The DNS step of a run, between reading inputs and matching them: one client (one cache, one deadline) however
// many times the run asks, so the sync before a gate and the check itself share their lookups. The resolver code is
// imported only when some domain needs it.
import type { Matcher } from '../catalog/matcher.js';
import type { Dependency, InputProblem } from '../model.js';
import type { DnsClient } from './client.js';
import type { DnsSettings } from './settings.js';

export interface DnsSummary {
  /** Host names and registrable domains looked up, and the queries that took. */
  names: number;
  queries: number;
  server?: string;
  /** Set when lookups were off: why, and how many names were matched by name only. */
  skipped?: { reason: string; names: number };
}

export interface DnsStageResult {
  /** Domains carrying the DNS answers that matched a provider. */
  found: Dependency[];
  problems: InputProblem[];
}

export interface DnsStage {
  resolve(dependencies: Dependency[], matcher: Matcher): Promise<DnsStageResult>;
  /** Undefined when nothing needed resolving. */
  summary(): DnsSummary | undefined;
  close(): void;
}

export function createDnsStage(settings: DnsSettings): DnsStage {
  let client: DnsClient | undefined;
  let summary: DnsSummary | undefined;
  return {
    async resolve(dependencies, matcher) {
      // Only a domain is ever looked up: a stack without one needs none of the resolver code.
      if (!dependencies.some((dependency) => dependency.ecosystem === 'domain')) return { found: [], problems: [] };
      const { discoverProviders, resolutionCandidates } = await import('./discover.js');
      const candidates = resolutionCandidates(dependencies, matcher);
      if (candidates.length === 0) return { found: [], problems: [] };
      if (!settings.resolve) {
        summary = { names: 0, queries: 0, skipped: { reason: settings.skipped ?? 'off', names: candidates.length } };
        return { found: [], problems: [] };
      }
      if (!client) {
        const { createDnsClient } = await import('./client.js');
        client = createDnsClient(settings);
      }
      const result = await discoverProviders(candidates, matcher, client);
      summary = { names: result.names, queries: client.queries, server: client.server };
      return { found: result.dependencies, problems: result.problems };
    },
    summary: () => summary,
    close() {
      client?.close();
    },
  };
}
