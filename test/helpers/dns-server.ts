// A loopback DNS server for tests: answers like a recursive resolver would (CNAME chains followed inside the zone,
// NXDOMAIN for unknown names, NODATA for known names without the type asked), over UDP and TCP on one port, with
// faults to inject per name or per name and type: SERVFAIL, NXDOMAIN, REFUSED, silence (a timeout), and UDP answers
// truncated so the client must ask again over TCP. Answers larger than the client's UDP size are truncated too.
import dgram from 'node:dgram';
import net from 'node:net';
import packet from 'dns-packet';

export type QueryType = 'CNAME' | 'A' | 'AAAA' | 'NS' | 'MX' | 'TXT';
export type Fault = 'servfail' | 'nxdomain' | 'refused' | 'timeout' | 'truncate';

export interface ZoneEntry {
  CNAME?: string;
  A?: string[];
  AAAA?: string[];
  NS?: string[];
  /** `10 aspmx.l.google.com` or just the exchange (priority 10). */
  MX?: string[];
  /** Each record as one string, or as its chunks. */
  TXT?: Array<string | string[]>;
}

export interface DnsServerOptions {
  zone: Record<string, ZoneEntry>;
  faults?: Record<string, Fault | Partial<Record<QueryType, Fault>>>;
}

export interface DnsServer {
  /** `127.0.0.1:PORT`, for `--resolver` and DOWNSTACK_RESOLVER. */
  address: string;
  /** Every question received, with the transport it came over. */
  log: Array<{ name: string; type: string; transport: 'udp' | 'tcp' }>;
  close(): Promise<void>;
}

const RCODE = { servfail: 2, nxdomain: 3, refused: 5 } as const;

function faultFor(options: DnsServerOptions, name: string, type: string): Fault | undefined {
  const fault = options.faults?.[name];
  return typeof fault === 'string' ? fault : fault?.[type as QueryType];
}

function answer(options: DnsServerOptions, query: packet.Packet, transport: 'udp' | 'tcp'): packet.Packet | undefined {
  const question = query.questions?.[0];
  const base = {
    id: query.id,
    type: 'response' as const,
    flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE,
    questions: query.questions,
    answers: [] as packet.Answer[],
  };
  if (!question) return { ...base, flags: base.flags | 1 };
  const name = question.name.toLowerCase();
  const fault = faultFor(options, name, question.type);
  if (fault === 'timeout') return undefined;
  if (fault === 'servfail' || fault === 'nxdomain' || fault === 'refused')
    return { ...base, flags: base.flags | RCODE[fault] };
  if (fault === 'truncate' && transport === 'udp') return { ...base, flags: base.flags | packet.TRUNCATED_RESPONSE };

  let current = name;
  let entry = options.zone[current];
  if (!entry) return { ...base, flags: base.flags | RCODE.nxdomain };
  for (let hops = 0; entry?.CNAME && question.type !== 'CNAME' && hops < 16; hops++) {
    base.answers.push({ type: 'CNAME', name: current, ttl: 60, data: entry.CNAME });
    current = entry.CNAME.toLowerCase();
    entry = options.zone[current];
  }
  if (entry) base.answers.push(...records(entry, current, question.type));
  const response = base;
  const limit =
    transport === 'tcp'
      ? Number.POSITIVE_INFINITY
      : ((query.additionals?.find((record) => record.type === 'OPT') as packet.OptAnswer | undefined)?.udpPayloadSize ??
        512);
  if (packet.encodingLength(response) > limit)
    return { ...response, answers: [], flags: response.flags | packet.TRUNCATED_RESPONSE };
  return response;
}

function records(entry: ZoneEntry, name: string, type: string): packet.Answer[] {
  const ttl = 60;
  switch (type) {
    case 'CNAME':
      return entry.CNAME ? [{ type: 'CNAME', name, ttl, data: entry.CNAME }] : [];
    case 'A':
      return (entry.A ?? []).map((data) => ({ type: 'A', name, ttl, data }));
    case 'AAAA':
      return (entry.AAAA ?? []).map((data) => ({ type: 'AAAA', name, ttl, data }));
    case 'NS':
      return (entry.NS ?? []).map((data) => ({ type: 'NS', name, ttl, data }));
    case 'MX':
      return (entry.MX ?? []).map((value) => {
        const [first = '', second] = value.split(/\s+/);
        const exchange = second ?? first;
        return { type: 'MX', name, ttl, data: { preference: second ? Number(first) : 10, exchange } };
      });
    case 'TXT':
      return (entry.TXT ?? []).map((data) => ({
        type: 'TXT',
        name,
        ttl,
        data: typeof data === 'string' ? chunks(data) : data,
      }));
    default:
      return [];
  }
}

/** TXT strings longer than 255 bytes are sent as several chunks, as zone files write them. */
function chunks(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += 255) out.push(text.slice(i, i + 255));
  return out.length > 0 ? out : [''];
}

export async function startDnsServer(options: DnsServerOptions): Promise<DnsServer> {
  const log: DnsServer['log'] = [];
  const record = (query: packet.Packet, transport: 'udp' | 'tcp') => {
    for (const question of query.questions ?? []) log.push({ name: question.name, type: question.type, transport });
  };
  const udp = dgram.createSocket('udp4');
  udp.on('message', (message, remote) => {
    let query: packet.Packet;
    try {
      query = packet.decode(message);
    } catch {
      return;
    }
    record(query, 'udp');
    const response = answer(options, query, 'udp');
    if (response) udp.send(packet.encode(response), remote.port, remote.address);
  });
  await new Promise<void>((done) => udp.bind(0, '127.0.0.1', done));
  const port = udp.address().port;
  const sockets = new Set<net.Socket>();
  const tcp = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      while (buffer.length >= 2) {
        const length = buffer.readUInt16BE(0);
        if (buffer.length < length + 2) break;
        const query = packet.decode(buffer.subarray(2, length + 2));
        buffer = buffer.subarray(length + 2);
        record(query, 'tcp');
        const response = answer(options, query, 'tcp');
        if (response) socket.write(packet.streamEncode(response));
      }
    });
  });
  await new Promise<void>((done, fail) => {
    tcp.once('error', fail);
    tcp.listen(port, '127.0.0.1', done);
  });
  return {
    address: `127.0.0.1:${port}`,
    log,
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all([
        new Promise<void>((done) => udp.close(() => done())),
        new Promise<void>((done) => tcp.close(() => done())),
      ]);
    },
  };
}
