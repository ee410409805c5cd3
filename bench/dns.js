// DNS detection speed: a few hundred of a team's host names resolved against a loopback DNS server that answers
// after a fixed simulated latency, as ratios of one query measured in the same run; the run at 4× the names shows
// how the cost grows; and loading the bundled address ranges as a ratio of parsing the same file as plain JSON.
import dgram from 'node:dgram';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import packet from 'dns-packet';
import { loadCatalog } from '../dist/catalog/loader.js';
import { buildMatcher } from '../dist/catalog/matcher.js';
import { createDnsClient } from '../dist/dns/client.js';
import { discoverProviders } from '../dist/dns/discover.js';
import { loadIpRanges } from '../dist/dns/ip-ranges.js';
import { IP_RANGES_FILE } from '../dist/paths.js';
import { median, report } from './harness.js';

const LATENCY_MS = 5;
const TARGETS = [
  { CNAME: 'cname.vercel-dns.com' },
  { CNAME: 'acme-prod-1234.eu-west-1.elb.amazonaws.com' },
  { A: ['52.216.8.1'] },
  { A: ['34.23.0.5'] },
  { CNAME: 'acme.zendesk.com' },
  { A: ['203.0.114.9'] },
];

/** `count` hosts under count/10 registrable domains, each domain with NS, MX and an SPF record. */
function zoneFor(count) {
  // Provider-side targets exist, as they do in real DNS.
  const zone = {
    'cname.vercel-dns.com': { A: ['76.76.21.21'] },
    'acme-prod-1234.eu-west-1.elb.amazonaws.com': { A: ['52.18.0.10'] },
    'acme.zendesk.com': { A: ['216.198.0.1'] },
  };
  const hosts = [];
  for (let i = 0; i < count; i++) {
    const domain = `team${Math.floor(i / 10)}.com`;
    zone[domain] ??= {
      NS: ['ns-1279.awsdns-31.org'],
      MX: ['aspmx.l.google.com'],
      TXT: ['v=spf1 include:_spf.google.com include:sendgrid.net ~all', 'stripe-verification=abc'],
    };
    const host = `svc${i}.${domain}`;
    zone[host] = TARGETS[i % TARGETS.length];
    hosts.push(host);
  }
  return { zone, hosts };
}

function answer(zone, query) {
  const question = query.questions[0];
  const response = { id: query.id, type: 'response', flags: 0x180, questions: query.questions, answers: [] };
  let entry = zone[question.name];
  if (!entry) return { ...response, flags: response.flags | 3 };
  let name = question.name;
  while (entry?.CNAME && question.type !== 'CNAME') {
    response.answers.push({ type: 'CNAME', name, ttl: 60, data: entry.CNAME });
    name = entry.CNAME;
    entry = zone[name];
  }
  const data = question.type === 'CNAME' ? (entry?.CNAME ? [entry.CNAME] : []) : (entry?.[question.type] ?? []);
  for (const value of data) {
    const record =
      question.type === 'MX' ? { preference: 10, exchange: value } : question.type === 'TXT' ? [value] : value;
    response.answers.push({ type: question.type, name, ttl: 60, data: record });
  }
  return response;
}

async function startServer(zone) {
  const socket = dgram.createSocket('udp4');
  socket.on('message', (message, remote) => {
    const query = packet.decode(message);
    setTimeout(() => socket.send(packet.encode(answer(zone, query)), remote.port, remote.address), LATENCY_MS);
  });
  await new Promise((done) => socket.bind(0, '127.0.0.1', done));
  return { socket, address: `127.0.0.1:${socket.address().port}` };
}

const domain = (name, line) => ({ ecosystem: 'domain', name, file: 'domains.txt', line, direct: true, via: [name] });

export async function run() {
  const catalog = loadCatalog();
  const matcher = buildMatcher(catalog);
  const small = zoneFor(300);
  const large = zoneFor(1200);
  const server = await startServer({ ...small.zone, ...large.zone });
  try {
    const single = await median(async () => {
      const client = createDnsClient({ server: server.address });
      await client.lookup('A', 'svc2.team0.com');
      client.close();
    });
    report(`dns: one query (${LATENCY_MS} ms simulated latency)`, single, 'one query', single);
    const resolveAll = async (hosts) => {
      const client = createDnsClient({ server: server.address, deadlineMs: 120_000 });
      try {
        const result = await discoverProviders(
          hosts.map((host, i) => domain(host, i + 1)),
          matcher,
          client,
        );
        return { result, queries: client.queries };
      } finally {
        client.close();
      }
    };
    let stats;
    const hundreds = await median(async () => {
      stats = await resolveAll(small.hosts);
    }, 3);
    report(
      `dns: ${small.hosts.length} names`,
      hundreds,
      'one query',
      single,
      `${stats.queries} queries (16 in flight: ~${Math.ceil(stats.queries / 16)} round trips), ${stats.result.dependencies.length} pieces of evidence, notes: ${stats.result.problems.map((p) => p.message).join('; ') || 'none'}`,
    );
    const fourfold = await median(async () => {
      stats = await resolveAll(large.hosts);
    }, 3);
    report(
      `dns: ${large.hosts.length} names (4×)`,
      fourfold,
      `${small.hosts.length} names`,
      hundreds,
      `${stats.queries} queries; linear growth reads 4.00×`,
    );

    const text = readFileSync(IP_RANGES_FILE, 'utf8');
    const parse = await median(async () => JSON.parse(readFileSync(IP_RANGES_FILE, 'utf8')));
    const load = await median(async () => loadIpRanges());
    report('dns: load data/ip-ranges.json', load, 'JSON.parse of it', parse, `${Math.round(text.length / 1024)} KB`);
    const ranges = loadIpRanges();
    const lookups = await median(async () => {
      for (let i = 0; i < 10_000; i++) ranges.lookup(`52.${i % 256}.${(i * 7) % 256}.1`);
    });
    report('dns: 10,000 address lookups', lookups, 'JSON.parse of it', parse);
  } finally {
    server.socket.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await run();
