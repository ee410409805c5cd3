// HTML to plain text for incident pages: scripts, styles and comments are dropped whole, never kept or run.

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  rsquo: '’',
  lsquo: '‘',
  rdquo: '”',
  ldquo: '“',
  hellip: '…',
  bull: '•',
  middot: '·',
};

export function looksLikeHtml(text: string): boolean {
  return (
    /<(?:!doctype html|html|head|body|div|p|script|style|br|h[1-6]|li|ul|span|table|article|section)\b[^>]*>/i.test(
      text.slice(0, 20_000),
    ) && /<\/\w+>/.test(text)
  );
}

export interface HtmlText {
  text: string;
  title?: string;
}

export function htmlToText(html: string): HtmlText {
  const withoutCode = html
    .replace(/<!--[\s\S]*?(?:-->|$)/g, ' ')
    // An unterminated <script> runs to the end of the document, as a browser would read it.
    .replace(/<(script|style|noscript|template|iframe|object|svg)\b[\s\S]*?(?:<\/\1\s*>|$)/gi, ' ');
  const titleMatch =
    /<title\b[^>]*>([\s\S]*?)<\/title>/i.exec(withoutCode) ?? /<h1\b[^>]*>([\s\S]*?)<\/h1>/i.exec(withoutCode);
  const text = decodeEntities(
    withoutCode
      .replace(/<title\b[\s\S]*?<\/title>/gi, '')
      .replace(/<br\s*\/?>/gi, '\n')
      .replace(/<li\b[^>]*>/gi, '\n- ')
      .replace(/<\/(?:p|div|li|h[1-6]|tr|section|article|header|footer|ul|ol|table|blockquote)>/gi, '\n')
      .replace(/<(?:p|div|h[1-6]|tr|section|article)\b[^>]*>/gi, '\n')
      .replace(/<[^>]*>/g, ''),
  )
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const title = titleMatch
    ? decodeEntities(titleMatch[1]?.replace(/<[^>]*>/g, '') ?? '')
        .replace(/\s+/g, ' ')
        .trim()
    : undefined;
  return { text, ...(title ? { title } : {}) };
}

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, entity: string) => {
    if (entity.startsWith('#')) {
      const code =
        entity[1] === 'x' || entity[1] === 'X' ? Number.parseInt(entity.slice(2), 16) : Number(entity.slice(1));
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[entity.toLowerCase()] ?? whole;
  });
}
