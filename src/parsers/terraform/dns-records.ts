// DNS managed as code says who serves a team's domains without any lookup: record resources of Route 53
// (https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/route53_record), Cloudflare
// (cloudflare_record in v4, cloudflare_dns_record in v5), Google Cloud DNS (google_dns_record_set) and Azure DNS
// (azurerm_dns_*_record) become domains carrying their records; zones become domains DNS detection may look up.
import { isDnsName, normalizeHost } from '../../domains.js';
import type { DnsRecord, DnsRecordType } from '../../model.js';
import { spfTerms, isSpfRecord } from '../../dns/spf.js';
import type { BodyView } from './body-view.js';

/** What a record resource holds, read through whatever resolves its expressions (HCL scope or plan values). */
export interface RecordReader {
  /** The literal values an attribute can take (a list attribute gives each element's). */
  values(expression: unknown): string[];
  /** The name of the zone a `zone_id`/`zone_name`/`managed_zone` attribute refers to, when it can be known. */
  zoneName(expression: unknown): string | undefined;
}

const AZURE_TYPES: Record<string, DnsRecordType> = {
  azurerm_dns_cname_record: 'CNAME',
  azurerm_dns_mx_record: 'MX',
  azurerm_dns_txt_record: 'TXT',
  azurerm_dns_ns_record: 'NS',
  azurerm_dns_a_record: 'A',
  azurerm_dns_aaaa_record: 'AAAA',
};
const RECORD_TYPES = new Set(['CNAME', 'MX', 'TXT', 'NS', 'A', 'AAAA']);

export function isDnsRecordResource(type: string): boolean {
  return (
    type === 'aws_route53_record' ||
    type === 'cloudflare_record' ||
    type === 'cloudflare_dns_record' ||
    type === 'google_dns_record_set' ||
    type in AZURE_TYPES
  );
}

export const ZONE_TYPES = new Set([
  'aws_route53_zone',
  'cloudflare_zone',
  'google_dns_managed_zone',
  'azurerm_dns_zone',
]);

/**
 * Public zones a configuration manages: the team's own domains. Bodies are read through a view (a plan's values
 * through `fullView`), so a zone or record written in HCL is parsed only for an attribute the shallow reader declines.
 */
export function zoneResourceName(type: string, body: BodyView, read: RecordReader): string | undefined {
  let values: string[] = [];
  if (type === 'aws_route53_zone' && !hasVpc(body)) values = read.values(body.get('name'));
  else if (type === 'cloudflare_zone') values = read.values(body.get('zone') ?? body.get('name'));
  else if (type === 'google_dns_managed_zone' && body.get('visibility') !== 'private')
    values = read.values(body.get('dns_name'));
  else if (type === 'azurerm_dns_zone') values = read.values(body.get('name'));
  const [value] = values;
  if (value === undefined) return undefined;
  const host = normalizeHost(value);
  return host.ok ? host.entry.host : undefined;
}

/**
 * The records one resource declares, as DNS answers would carry them (SPF records split into their includes). A
 * name Terraform computes (`each.key` of a for_each) is shown as `unknownName`, the resource's address: the values
 * are what name the provider.
 */
export function dnsRecordsOf(type: string, body: BodyView, read: RecordReader, unknownName: string): DnsRecord[] {
  const recordType = (AZURE_TYPES[type] ?? read.values(body.get('type'))[0]?.toUpperCase()) as
    | DnsRecordType
    | undefined;
  const name = recordName(type, body, read) ?? unknownName;
  const out: DnsRecord[] = [];
  if (type === 'aws_route53_record')
    for (const alias of body.blocks('alias'))
      for (const target of read.values(alias.get('name'))) add(out, name, 'ALIAS', target);
  if (!recordType || !RECORD_TYPES.has(recordType)) return out;
  for (const value of recordValues(type, body, read)) add(out, name, recordType, value);
  return out;
}

function recordName(type: string, body: BodyView, read: RecordReader): string | undefined {
  // Plans and states carry the full name the provider computed.
  const [fqdn] = read.values(body.get('fqdn') ?? body.get('hostname'));
  if (fqdn) return fqdn.toLowerCase().replace(/\.$/, '');
  const zone = read.zoneName(
    type.startsWith('azurerm_') ? body.get('zone_name') : (body.get('zone_id') ?? body.get('managed_zone')),
  );
  const written = body.get('name');
  const [raw] = read.values(written);
  // A name Terraform computes (`each.key`) is unknown; a record without one sits at the zone's apex.
  if (raw === undefined) return written === undefined || written === '' ? zone : undefined;
  const name = raw.toLowerCase().replace(/\.$/, '');
  if (name === '@' || name === '') return zone;
  if (!zone || name === zone || name.endsWith(`.${zone}`)) return name;
  return `${name}.${zone}`;
}

function recordValues(type: string, body: BodyView, read: RecordReader): string[] {
  switch (type) {
    case 'aws_route53_record':
      return read.values(body.get('records'));
    case 'cloudflare_record':
    case 'cloudflare_dns_record':
      return read.values(body.get('content') ?? body.get('value'));
    case 'google_dns_record_set':
      return read.values(body.get('rrdatas'));
    case 'azurerm_dns_cname_record':
      return read.values(body.get('record'));
    case 'azurerm_dns_mx_record':
      return body.blocks('record').flatMap((record) => read.values(record.get('exchange')));
    case 'azurerm_dns_txt_record':
      return body.blocks('record').flatMap((record) => read.values(record.get('value')));
    default:
      return read.values(body.get('records'));
  }
}

/** A Route 53 zone with a `vpc` block (or a non-empty `vpc` value) is private. */
function hasVpc(body: BodyView): boolean {
  if (body.blocks('vpc').length > 0) return true;
  if (!body.has('vpc')) return false;
  const vpc = body.get('vpc');
  return Array.isArray(vpc) ? vpc.length > 0 : true;
}

/** For plans and states: every value is already literal. */
export const literalReader: RecordReader = {
  values(expression) {
    if (Array.isArray(expression)) return expression.flatMap((item) => literalReader.values(item));
    if (typeof expression === 'number') return [String(expression)];
    return typeof expression === 'string' && expression !== '' && !expression.includes('${') ? [expression] : [];
  },
  zoneName(expression) {
    const [value] = literalReader.values(expression);
    return value?.includes('.') ? value.toLowerCase().replace(/\.$/, '') : undefined;
  },
};

function add(out: DnsRecord[], name: string, type: DnsRecordType, raw: string): void {
  if (type === 'TXT') {
    const text = unquote(raw);
    if (isSpfRecord(text)) for (const term of spfTerms(text)) out.push({ name, type: 'SPF', value: term });
    else if (text !== '') out.push({ name, type, value: text.slice(0, 512) });
    return;
  }
  // MX values carry their priority in Route 53 and Google Cloud DNS (`10 aspmx.l.google.com.`).
  const value = (type === 'MX' ? raw.trim().split(/\s+/).at(-1) : raw.trim())?.toLowerCase().replace(/\.$/, '') ?? '';
  if (type === 'A' || type === 'AAAA' ? value !== '' : isDnsName(value)) out.push({ name, type, value });
}

/** Zone files and DNS APIs write TXT data as quoted chunks (`"v=spf1 …" "…-all"`); the meaning is their concatenation. */
function unquote(raw: string): string {
  const text = raw.trim();
  if (!text.startsWith('"')) return text;
  const chunks = [...text.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) => (match[1] ?? '').replace(/\\(.)/g, '$1'));
  return chunks.join('');
}
