// The cloud providers' published address ranges (data/ip-ranges.json, built by scripts/build-ip-ranges.js), read
// only when an A/AAAA answer needs matching, and the rule that private and reserved addresses are never matched.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Ipaddr from 'ipaddr.js';
import { IP_RANGES_FILE } from '../paths.js';

// Loaded on first use: the matcher imports this module, and most runs never see an address.
let ipaddrModule: typeof Ipaddr | undefined;
const ipaddr = () => (ipaddrModule ??= createRequire(import.meta.url)('ipaddr.js') as typeof Ipaddr);

export interface IpRangeLabel {
  /** Catalog provider id. */
  provider: string;
  /** The provider's own service label (`S3`, `AzureFrontDoor.Frontend`); '' when the list has none. */
  service: string;
  /** The provider's region id; '' for global ranges. */
  region: string;
}

export interface IpRangeSource {
  provider: string;
  url: string;
  published: string;
  prefixes: number;
  via?: string;
}

export interface IpRanges {
  sources: IpRangeSource[];
  /** Every label in the data, so a test can check that the catalog names only services that exist. */
  labels: IpRangeLabel[];
  lookup(address: string): IpRangeLabel | undefined;
}

interface RangeFile {
  sources: IpRangeSource[];
  labels: Array<[string, string, string]>;
  v4: string;
  v6: string;
}

/** Runs as parallel arrays, starts ascending: one binary search per lookup. */
interface Runs<T> {
  start: T[];
  end: T[];
  label: number[];
}

function decode<T>(text: string, parse: (base36: string) => T, add: (a: T, b: T) => T, one: T): Runs<T> {
  const runs: Runs<T> = { start: [], end: [], label: [] };
  if (text === '') return runs;
  let next: T | undefined;
  for (const run of text.split(',')) {
    const [gap = '0', size = '0', label = '0'] = run.split('.');
    const start = next === undefined ? parse(gap) : add(next, parse(gap));
    const end = add(start, parse(size));
    runs.start.push(start);
    runs.end.push(end);
    runs.label.push(Number.parseInt(label, 36));
    next = add(end, one);
  }
  return runs;
}

function find<T>(runs: Runs<T>, key: T): number | undefined {
  let low = 0;
  let high = runs.start.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if ((runs.start[mid] as T) > key) high = mid - 1;
    else if ((runs.end[mid] as T) < key) low = mid + 1;
    else return runs.label[mid];
  }
  return undefined;
}

export function loadIpRanges(file = IP_RANGES_FILE): IpRanges {
  const data = JSON.parse(readFileSync(file, 'utf8')) as RangeFile;
  const labels = data.labels.map(([provider, service, region]) => ({ provider, service, region }));
  const v4 = decode(
    data.v4,
    (text) => Number.parseInt(text, 36),
    (a, b) => a + b,
    1,
  );
  const v6 = decode(
    data.v6,
    (text) => BigInt(`0x${text}`),
    (a, b) => a + b,
    1n,
  );
  return {
    sources: data.sources,
    labels,
    lookup(address) {
      const parsed = parseAddress(address);
      if (!parsed) return undefined;
      const bytes = parsed.toByteArray();
      const index =
        parsed.kind() === 'ipv4'
          ? find(
              v4,
              bytes.reduce((sum, byte) => sum * 256 + byte, 0),
            )
          : find(
              v6,
              bytes.slice(0, 8).reduce((sum, byte) => (sum << 8n) | BigInt(byte), 0n),
            );
      return index === undefined ? undefined : labels[index];
    },
  };
}

/** IPv4-mapped IPv6 addresses are read as the IPv4 address they carry. */
function parseAddress(address: string): Ipaddr.IPv4 | Ipaddr.IPv6 | undefined {
  if (!ipaddr().isValid(address)) return undefined;
  const parsed = ipaddr().parse(address);
  return parsed.kind() === 'ipv6' && (parsed as Ipaddr.IPv6).isIPv4MappedAddress()
    ? (parsed as Ipaddr.IPv6).toIPv4Address()
    : parsed;
}

/**
 * Private, loopback, link-local, shared (CGNAT), documentation and other reserved addresses say nothing about a
 * provider: a name that resolves to one is internal.
 */
export function isInternalAddress(address: string): boolean {
  const parsed = parseAddress(address);
  return parsed === undefined || parsed.range() !== 'unicast';
}
