// Maintainer script: turns the cloud providers' published address lists into data/ip-ranges.json, the compact
// table DNS detection matches A/AAAA answers against. Each source is read from a file or its official URL:
//
//   node scripts/build-ip-ranges.js --aws ip-ranges.json --google cloud.json --azure ServiceTags_Public.json \
//     --cloudflare-v4 ips-v4 --cloudflare-v6 ips-v6 --fastly public-ip-list.json \
//     [--via aws="a daily copy in …"] [--published fastly=2026-08-22]   (for lists that carry no date)
//
// The output records where each list came from and how old it is. Prefixes nest (AWS lists a range under AMAZON
// and again under S3), so they are flattened into disjoint intervals where the most specific entry wins, then
// adjacent intervals with the same label are merged: lookups are one binary search.
import { readFile, writeFile } from 'node:fs/promises';
import ipaddr from 'ipaddr.js';

const OFFICIAL = {
  aws: 'https://ip-ranges.amazonaws.com/ip-ranges.json',
  google: 'https://www.gstatic.com/ipranges/cloud.json',
  azure: 'https://www.microsoft.com/en-us/download/details.aspx?id=56519',
  'cloudflare-v4': 'https://www.cloudflare.com/ips-v4',
  'cloudflare-v6': 'https://www.cloudflare.com/ips-v6',
  fastly: 'https://api.fastly.com/public-ip-list',
};

// Vercel publishes no list, only the address its docs tell people to point an apex domain at.
const VERCEL = {
  url: 'https://vercel.com/docs/domains/set-up-custom-domain',
  prefixes: ['76.76.21.21/32'],
};

// Azure publishes ~3,000 tags (90,000 prefixes, most repeated). Kept: the regional AzureCloud tags (which region),
// and the services a team's own host names point at, so an address can name the component.
const AZURE_SERVICES = new Set([
  'AzureCloud',
  'AppService',
  'Storage',
  'Sql',
  'AzureCosmosDB',
  'AzureFrontDoor.Frontend',
  'AzureTrafficManager',
  'ApiManagement',
  'AzureContainerRegistry',
  'EventHub',
  'ServiceBus',
  'AzureKeyVault',
  'AzureSignalR',
  'AzureWebPubSub',
  'AzureCognitiveSearch',
  'CognitiveServicesFrontend',
]);

function parseArgs(argv) {
  const options = { via: {}, published: {}, out: 'data/ip-ranges.json' };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--via' || flag === '--published') {
      const [provider, ...text] = value.split('=');
      options[flag.slice(2)][provider] = text.join('=');
    } else if (flag === '--out') options.out = value;
    else if (flag.startsWith('--') && flag.slice(2) in OFFICIAL) options[flag.slice(2)] = value;
    else throw new Error(`unknown option ${flag}`);
  }
  return options;
}

async function read(source) {
  if (/^https:\/\//.test(source)) {
    const response = await fetch(source);
    if (!response.ok) throw new Error(`${source}: HTTP ${response.status}`);
    return response.text();
  }
  return readFile(source, 'utf8');
}

/** One published prefix as a closed interval of BigInts, with its label and how specific it is. */
function interval(cidr, label, rank) {
  const [address, bits] = ipaddr.parseCIDR(cidr.trim());
  const width = address.kind() === 'ipv4' ? 32 : 128;
  const start = address.toByteArray().reduce((sum, byte) => (sum << 8n) | BigInt(byte), 0n);
  const size = 1n << BigInt(width - bits);
  const base = start - (start % size);
  return { kind: address.kind(), start: base, end: base + size - 1n, bits, label, rank };
}

function awsEntries(document) {
  const out = [];
  for (const entry of document.prefixes ?? [])
    out.push([entry.ip_prefix, ['aws', entry.service, entry.region === 'GLOBAL' ? '' : entry.region]]);
  for (const entry of document.ipv6_prefixes ?? [])
    out.push([entry.ipv6_prefix, ['aws', entry.service, entry.region === 'GLOBAL' ? '' : entry.region]]);
  return out;
}

function googleEntries(document) {
  return (document.prefixes ?? []).map((entry) => [
    entry.ipv4Prefix ?? entry.ipv6Prefix,
    ['google-cloud', entry.service ?? 'Google Cloud', entry.scope === 'global' ? '' : (entry.scope ?? '')],
  ]);
}

function azureEntries(document) {
  const out = [];
  for (const tag of document.values ?? []) {
    const [service] = tag.name.split('.', 1);
    const base = tag.name === 'AzureFrontDoor.Frontend' ? tag.name : service;
    if (!AZURE_SERVICES.has(base)) continue;
    if (base !== tag.name && tag.properties.region === '' && base !== 'AzureFrontDoor.Frontend') continue;
    for (const prefix of tag.properties.addressPrefixes)
      out.push([prefix, ['azure', base === 'AzureCloud' ? '' : base, tag.properties.region ?? '']]);
  }
  return out;
}

function lines(text, provider) {
  return text
    .split(/\s+/)
    .filter((line) => line.includes('/'))
    .map((prefix) => [prefix, [provider, '', '']]);
}

/** A service-specific entry beats a provider-wide one (S3 over AMAZON), a regional one beats a global one. */
function rankOf([, service, region]) {
  return (service && service !== 'AMAZON' ? 2 : 0) + (region ? 1 : 0);
}

/** Disjoint [start, end, label] runs where the innermost (then highest-ranked) prefix wins. */
function flatten(intervals) {
  const sorted = [...intervals].sort((a, b) =>
    a.start !== b.start ? (a.start < b.start ? -1 : 1) : a.bits - b.bits || a.rank - b.rank,
  );
  const out = [];
  const stack = [];
  let cursor = 0n;
  const emit = (from, to, label) => {
    if (from > to) return;
    const last = out.at(-1);
    if (last && last.label === label && last.end + 1n === from) last.end = to;
    else out.push({ start: from, end: to, label });
  };
  const popUntil = (position) => {
    while (stack.length > 0 && stack.at(-1).end < position) {
      const top = stack.pop();
      emit(cursor, top.end, top.label);
      cursor = top.end + 1n;
    }
  };
  for (const item of sorted) {
    popUntil(item.start);
    const top = stack.at(-1);
    if (top && top.start === item.start && top.end === item.end) {
      // The same prefix twice: the more specific label stays (ties keep the first).
      if (item.rank > top.rank) stack[stack.length - 1] = item;
      continue;
    }
    if (top) emit(cursor, item.start - 1n, top.label);
    cursor = item.start;
    stack.push(item);
  }
  popUntil(1n << 129n);
  return out;
}

const options = parseArgs(process.argv.slice(2));
const sources = [];
const entries = [];
const take = async (key, provider, toEntries, date) => {
  const location = options[key] ?? OFFICIAL[key];
  const text = await read(location);
  const parsed = toEntries(text);
  entries.push(...parsed);
  sources.push({
    provider,
    url: OFFICIAL[key],
    published: date(text),
    prefixes: parsed.length,
    ...(options.via[provider] ? { via: options.via[provider] } : {}),
  });
};
await take(
  'aws',
  'aws',
  (text) => awsEntries(JSON.parse(text)),
  (text) => JSON.parse(text).createDate.replace(/^(\d+-\d+-\d+)-(\d+)-(\d+)-(\d+)$/, '$1T$2:$3:$4Z'),
);
await take(
  'google',
  'google-cloud',
  (text) => googleEntries(JSON.parse(text)),
  (text) => `${JSON.parse(text).creationTime.slice(0, 19)}Z`,
);
await take(
  'azure',
  'azure',
  (text) => azureEntries(JSON.parse(text)),
  (text) => `changeNumber ${JSON.parse(text).changeNumber}`,
);
await take(
  'cloudflare-v4',
  'cloudflare',
  (text) => lines(text, 'cloudflare'),
  () => options.published.cloudflare ?? 'undated list',
);
await take(
  'cloudflare-v6',
  'cloudflare',
  (text) => lines(text, 'cloudflare'),
  () => options.published.cloudflare ?? 'undated list',
);
await take(
  'fastly',
  'fastly',
  (text) => {
    const document = JSON.parse(text);
    return [...document.addresses, ...(document.ipv6_addresses ?? [])].map((prefix) => [prefix, ['fastly', '', '']]);
  },
  () => options.published.fastly ?? 'undated list',
);
entries.push(...VERCEL.prefixes.map((prefix) => [prefix, ['vercel', '', '']]));
sources.push({
  provider: 'vercel',
  url: VERCEL.url,
  published: 'documented address',
  prefixes: VERCEL.prefixes.length,
});

const labelIds = new Map();
const labels = [];
const intervals = entries.map(([prefix, label]) => {
  const key = label.join('\u0000');
  if (!labelIds.has(key)) {
    labelIds.set(key, labels.length);
    labels.push(label);
  }
  return interval(prefix, labelIds.get(key), rankOf(label));
});

// Each run is written as three numbers: the gap since the previous run's end, the run's size less one, and its label,
// in base 36 for IPv4 and base 16 for IPv6 (which BigInt reads natively). IPv6 keeps only the first 64 bits (published prefixes are /64 or shorter; a longer one is widened to
// its /64, which no host address lookup can tell apart). Deltas keep the file small and its parse fast.
const v4 = flatten(intervals.filter((entry) => entry.kind === 'ipv4'));
const v6 = flatten(
  intervals
    .filter((entry) => entry.kind === 'ipv6')
    .map((entry) => ({ ...entry, start: entry.start >> 64n, end: entry.end >> 64n, bits: Math.min(entry.bits, 64) })),
);
const encode = (runs, base) => {
  let next = 0n;
  const parts = runs.map((run) => {
    const text = `${(run.start - next).toString(base)}.${(run.end - run.start).toString(base)}.${run.label.toString(36)}`;
    next = run.end + 1n;
    return text;
  });
  return parts.join(',');
};
const output = {
  note: 'Generated by scripts/build-ip-ranges.js from the sources listed; do not edit by hand.',
  built: new Date().toISOString().slice(0, 10),
  sources,
  labels,
  v4: encode(v4, 36),
  v6: encode(v6, 16),
};
await writeFile(options.out, `${JSON.stringify(output)}\n`);
console.log(
  `${options.out}: ${entries.length} published prefixes → ${v4.length} IPv4 and ${v6.length} IPv6 runs, ${labels.length} labels`,
);
