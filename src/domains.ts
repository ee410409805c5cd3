// Turns whatever people put in a domain list (hosts, URLs, host:port, wildcards, IDNs) into a checked ASCII host.
import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { loadPublicSuffixes, type PublicSuffixes } from './public-suffixes.js';

let suffixes: PublicSuffixes | undefined;
/** Read at the first host that needs it: a stack without hosts reads no Public Suffix List. */
const publicSuffixes = () => (suffixes ??= loadPublicSuffixes());

export interface HostEntry {
  host: string;
  /** The registrable domain (or private suffix owner) according to the Public Suffix List. */
  registrable: string;
  /** The public suffix, private ones included (`herokuapp.com`, `s3.us-east-1.amazonaws.com`). */
  suffix: string;
}

export type HostResult = { ok: true; entry: HostEntry } | { ok: false; reason: string };

/** Normalizes one domain-list entry; never throws (psl does on URLs and host:port, so those are split first). */
export function normalizeHost(raw: string): HostResult {
  let value = raw.trim().replace(/\.$/, '');
  if (value === '') return { ok: false, reason: 'empty entry' };

  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    try {
      value = new URL(value).hostname;
    } catch {
      return { ok: false, reason: `not a valid URL: "${value}"` };
    }
  } else {
    // Bare host, host/path, host:port or [v6]:port.
    value = value.split(/[/?#]/, 1)[0] ?? '';
    const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
    if (bracketed) value = bracketed[1] ?? '';
    else if (/^[^:]+:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(':'));
  }
  value = value.replace(/^\*\./, '').replace(/^\[|\]$/g, '');

  // Only digits and dots (v4) or a colon (v6) can be an address: node's IPv6 pattern costs 10 ms to compile, once.
  if ((/^[\d.]+$/.test(value) || value.includes(':')) && isIP(value))
    return { ok: false, reason: `IP address "${value}" cannot be mapped to a provider; list its host name instead` };
  const ascii = domainToASCII(value.toLowerCase());
  if (!ascii) return { ok: false, reason: `not a valid host name: "${value}"` };
  if (/^[a-z0-9-]+$/.test(ascii))
    return { ok: false, reason: `"${value}" is a local name, not a public host; it cannot be mapped to a provider` };
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(ascii)) return { ok: false, reason: `not a valid host name: "${value}"` };

  const parsed = publicSuffixes().parse(ascii);
  if ('error' in parsed) return { ok: false, reason: `not a valid host name: "${value}" (${parsed.error})` };
  if (!parsed.listed || !parsed.domain || !parsed.tld) {
    return { ok: false, reason: `"${value}" does not end in a known public suffix` };
  }
  return { ok: true, entry: { host: ascii, registrable: parsed.domain, suffix: parsed.tld } };
}

/** The host and each of its parent domains, longest first: `a.b.example.com`, `b.example.com`, `example.com`, `com`. */
export function hostSuffixes(host: string): string[] {
  const labels = host.split('.');
  return labels.map((_, index) => labels.slice(index).join('.'));
}

/**
 * A name as DNS answers carry it (CNAME, NS and MX targets, SPF includes): LDH labels, plus the underscores service
 * names use (`_spf.google.com`), at most 63 bytes a label and 253 in all. Anything else (escapes, spaces, macros)
 * is not followed.
 */
export function isDnsName(name: string): boolean {
  const value = name.replace(/\.$/, '');
  return (
    value.length <= 253 &&
    value.split('.').length >= 2 &&
    value.split('.').every((label) => /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/i.test(label))
  );
}
