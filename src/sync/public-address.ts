// Whether a URL leads to the public internet. Providers a repository defines in its own `.downstack.yml` are the
// repository's to choose, so their status pages must be public: otherwise cloning a repository and running
// downstack in it could make it ask a metadata service, a router or a loopback port for anything. Checked for the
// URL and every redirect, on the name and on every address it resolves to.
import { BlockList, isIP } from 'node:net';

const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv6');

const LOCAL_NAMES = /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa)$/i;

export type Resolve = (host: string) => Promise<string[]>;

// The resolver is loaded only when a repository-defined provider is synced, not on every start.
const resolveAll: Resolve = async (host) => {
  const { lookup } = await import('node:dns/promises');
  return (await lookup(host, { all: true })).map((entry) => entry.address);
};

/** Why `url` is not a public http(s) address, or undefined when it is. A name that does not resolve is left to fetch. */
export async function notPublicReason(url: string, resolve: Resolve = resolveAll): Promise<string | undefined> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not a URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `${parsed.protocol} is not http(s)`;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isPrivate(host) ? `${host} is a private address` : undefined;
  if (!host.includes('.') || LOCAL_NAMES.test(host.replace(/\.$/, ''))) return `${host} is not a public host name`;
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    return undefined;
  }
  const inside = addresses.find(isPrivate);
  return inside ? `${host} resolves to a private address (${inside})` : undefined;
}

function isPrivate(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return PRIVATE.check(mapped[1], 'ipv4');
  return PRIVATE.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}
