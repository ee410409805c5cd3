// A team's own host names say who serves them: for every domain that names no provider, follow its CNAME chain,
// read its addresses and its registrable domain's NS, MX and TXT (SPF included, one level deep), and keep each
// answer the catalog matches as a dependency carrying that chain. Failures are located notes; nothing here throws.
import type { Matcher } from '../catalog/matcher.js';
import { isDnsName, normalizeHost } from '../domains.js';
import type { Dependency, DnsRecord, InputProblem } from '../model.js';
import type { DnsClient, LookupResult, RecordKind } from './client.js';
import { isInternalAddress } from './ip-ranges.js';
import { isSpfRecord, spfDomain, spfTerms } from './spf.js';

export const MAX_CNAME_HOPS = 8;
/** More TXT records than this on one name is a misconfiguration or a trap; the rest are not read. */
export const MAX_TXT_RECORDS = 200;
/** Long enough for any verification token or SPF record, short enough for a report line. */
const MAX_TXT_LENGTH = 512;

export interface DnsDiscovery {
  /** Domains with the DNS answers that matched a provider: evidence for exposures, not inputs of their own. */
  dependencies: Dependency[];
  problems: InputProblem[];
  /** Host names and registrable domains looked up. */
  names: number;
}

/** The domains resolution would look up: domain-list hosts (and Terraform zones) that name no provider. */
export function resolutionCandidates(dependencies: Dependency[], matcher: Matcher): Dependency[] {
  return dependencies.filter(
    (dependency) => dependency.ecosystem === 'domain' && !dependency.dns && matcher.match(dependency).length === 0,
  );
}

export async function discoverProviders(
  dependencies: Dependency[],
  matcher: Matcher,
  client: DnsClient,
): Promise<DnsDiscovery> {
  const found: Dependency[] = [];
  const problems: InputProblem[] = [];
  const lateByFile = new Map<string, Set<string>>();
  const registrables = new Map<string, Dependency>();
  const candidates = resolutionCandidates(dependencies, matcher);

  const noted = new Set<string>();
  const note = (at: Dependency, message: string) => {
    const key = `${at.file}\u0000${at.line}\u0000${message}`;
    if (noted.has(key)) return;
    noted.add(key);
    problems.push({ file: at.file, ...(at.line ? { line: at.line } : {}), message: `DNS: ${message}` });
  };
  /** Answers of a lookup, or undefined after noting why there are none (deadline misses are summed up per file). */
  const answers = async (at: Dependency, kind: RecordKind, name: string, what: string, chainFrom?: string) => {
    const result = await client.lookup(kind, name);
    if (result.ok) return result.values;
    if (result.failure === 'DEADLINE') {
      const names = lateByFile.get(at.file) ?? new Set<string>();
      names.add(name);
      lateByFile.set(at.file, names);
    } else note(at, describeFailure(result, what, name, client, chainFrom));
    return undefined;
  };
  /**
   * Keeps the chains the catalog matches, once per provider component for each starting point (the second MX of
   * the same mail service says nothing new). Says whether the chain matched at all.
   */
  const keeper = (at: Dependency, name: string) => {
    const seen = new Set<string>();
    return (chain: DnsRecord[]) => {
      const candidate: Dependency = { ...at, name, via: [name], dns: chain };
      const hits = matcher.match(candidate);
      const keys = hits.map(
        (hit) => `${hit.provider}\u0000${hit.component?.name ?? ''}\u0000${hit.component?.region ?? hit.region ?? ''}`,
      );
      if (keys.some((key) => !seen.has(key))) found.push(candidate);
      for (const key of keys) seen.add(key);
      return hits.length > 0;
    };
  };

  const followHost = async (at: Dependency) => {
    const keep = keeper(at, at.name);
    const chain: DnsRecord[] = [];
    const seen = new Set([at.name]);
    let name = at.name;
    let matched = false;
    while (true) {
      const targets = await answers(at, 'CNAME', name, 'the CNAME of', chain.length > 0 ? at.name : undefined);
      if (targets === undefined) return;
      const target = targets[0]?.toLowerCase().replace(/\.$/, '');
      if (target === undefined) break;
      if (!isDnsName(target)) {
        note(at, `${name} has a CNAME to "${target}", which is not a valid host name; not followed`);
        return;
      }
      if (chain.length === MAX_CNAME_HOPS) {
        note(
          at,
          `the CNAME chain of ${at.name} is longer than ${MAX_CNAME_HOPS} hops; the first ${MAX_CNAME_HOPS} were matched`,
        );
        break;
      }
      chain.push({ name, type: 'CNAME', value: target });
      if (keep([...chain])) matched = true;
      if (seen.has(target)) {
        note(at, `CNAME loop: ${[...chain.map((record) => record.name), target].join(' → ')}; not followed further`);
        return;
      }
      seen.add(target);
      name = target;
    }
    // Addresses say less than names: they are read only when no name in the chain named a provider.
    if (matched) return;
    const [v4, v6] = await Promise.all([
      answers(at, 'A', name, 'the addresses (A) of', chain.length > 0 ? at.name : undefined),
      answers(at, 'AAAA', name, 'the addresses (AAAA) of', chain.length > 0 ? at.name : undefined),
    ]);
    const internal = new Set<string>();
    for (const [type, addresses] of [
      ['A', v4],
      ['AAAA', v6],
    ] as const) {
      for (const address of addresses ?? []) {
        if (isInternalAddress(address)) internal.add(address);
        else keep([...chain, { name, type, value: address }]);
      }
    }
    if (internal.size > 0)
      note(
        at,
        `${at.name} resolves to ${[...internal].slice(0, 3).join(', ')}, ${internal.size === 1 ? 'an internal address' : 'internal addresses'}; not matched against any provider`,
      );
  };

  const followDomain = async (domain: string, at: Dependency) => {
    const keep = keeper(at, domain);
    const [ns, mx, txt] = await Promise.all([
      answers(at, 'NS', domain, 'the name servers (NS) of'),
      answers(at, 'MX', domain, 'the mail servers (MX) of'),
      answers(at, 'TXT', domain, 'the TXT records of'),
    ]);
    for (const [type, hosts] of [
      ['NS', ns],
      ['MX', mx],
    ] as const) {
      for (const host of hosts ?? []) {
        const value = host.toLowerCase().replace(/\.$/, '');
        if (isDnsName(value)) keep([{ name: domain, type, value }]);
      }
    }
    const records = txt ?? [];
    if (records.length > MAX_TXT_RECORDS)
      note(at, `${domain} has ${records.length} TXT records; only the first ${MAX_TXT_RECORDS} were read`);
    const includes: Array<Promise<void>> = [];
    for (const record of records.slice(0, MAX_TXT_RECORDS)) {
      if (!isSpfRecord(record)) {
        keep([{ name: domain, type: 'TXT', value: record.slice(0, MAX_TXT_LENGTH) }]);
        continue;
      }
      for (const term of spfTerms(record)) {
        const first: DnsRecord = { name: domain, type: 'SPF', value: term };
        if (keep([first]) || !isDnsName(spfDomain(term))) continue;
        // An include the catalog does not know may be the team's own list of senders: one level more.
        includes.push(
          (async () => {
            const nested = await answers(at, 'TXT', spfDomain(term), 'the SPF record of');
            for (const text of (nested ?? []).filter(isSpfRecord))
              for (const inner of spfTerms(text)) keep([first, { name: spfDomain(term), type: 'SPF', value: inner }]);
          })(),
        );
      }
    }
    await Promise.all(includes);
  };

  const work: Array<Promise<void>> = [];
  for (const dependency of candidates) {
    work.push(followHost(dependency));
    const entry = normalizeHost(dependency.name);
    if (entry.ok && !registrables.has(entry.entry.registrable)) {
      registrables.set(entry.entry.registrable, dependency);
      work.push(followDomain(entry.entry.registrable, dependency));
    }
  }
  await Promise.all(work);

  for (const [file, names] of lateByFile) {
    const list = [...names];
    problems.push({
      file,
      message: `DNS: the lookup deadline passed before ${list.length === 1 ? 'this name was' : `${list.length} names were`} resolved: ${list.slice(0, 5).join(', ')}${list.length > 5 ? `, and ${list.length - 5} more` : ''}; their providers are unknown`,
    });
  }
  return { dependencies: found, problems, names: candidates.length + registrables.size };
}

function describeFailure(
  result: Extract<LookupResult, { ok: false }>,
  what: string,
  name: string,
  client: DnsClient,
  chainFrom?: string,
): string {
  switch (result.failure) {
    case 'NXDOMAIN':
      // A CNAME whose target does not exist is a dangling record (and a subdomain-takeover risk).
      return chainFrom
        ? `${chainFrom} has a CNAME chain that ends at ${name}, which does not exist in DNS (NXDOMAIN): a dangling CNAME`
        : `${name} does not exist in DNS (NXDOMAIN)`;
    case 'SERVFAIL':
      return `the DNS server failed (SERVFAIL) on ${what} ${name}; its provider is unknown`;
    case 'TIMEOUT':
      return `no answer within ${client.queryTimeoutMs / 1000} s for ${what} ${name} (asked ${client.server}); its provider is unknown`;
    case 'REFUSED':
      return `${client.server} refused to answer for ${what} ${name}`;
    default:
      return `the answer for ${what} ${name} could not be read (${result.message})`;
  }
}
