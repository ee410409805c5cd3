// Bytes to text: the BOM wins (AWS serves UTF-16BE with FE FF), then the Content-Type charset, then UTF-8.
export function decodeBody(bytes: Uint8Array, contentType: string | undefined): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return new TextDecoder('utf-8').decode(bytes.subarray(3));
  const charset = /charset\s*=\s*"?([\w.-]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  // RFC 2781: UTF-16 without a BOM is big-endian (TextDecoder's "utf-16" would read it little-endian).
  if (charset === 'utf-16' || charset === 'utf-16be') return new TextDecoder('utf-16be').decode(bytes);
  if (charset === 'utf-16le') return new TextDecoder('utf-16le').decode(bytes);
  if (charset && charset !== 'utf-8' && charset !== 'utf8') {
    try {
      return new TextDecoder(charset).decode(bytes);
    } catch {
      // An unknown label: the payloads we read are JSON or XML, which are UTF-8 unless marked otherwise.
    }
  }
  return new TextDecoder('utf-8').decode(bytes);
}

export type BodyKind = 'json' | 'xml' | 'html' | 'empty' | 'other';

/** What the body is, from its first characters — a Content-Type header is too often wrong to decide by. */
export function sniffBody(text: string): BodyKind {
  const head = text
    .slice(0, 512)
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (head === '') return 'empty';
  if (head.startsWith('{') || head.startsWith('[')) return 'json';
  if (/^<!doctype\s+html|^<html[\s>]|^<head[\s>]|^<body[\s>]/i.test(head)) return 'html';
  if (head.startsWith('<'))
    return /<(rss|feed|rdf:RDF)[\s>]/i.test(text.slice(0, 4096))
      ? 'xml'
      : /<html[\s>]/i.test(text.slice(0, 4096))
        ? 'html'
        : 'xml';
  return 'other';
}
