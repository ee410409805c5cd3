// The one HTML-to-text for every reader (update bodies, feed content, whole incident pages). htmlparser2's tokenizer is a
// single pass, so hostile input (a megabyte of "<", unterminated comments or scripts) costs linear time; the text inside
// <script>, <style> and the like is dropped whole, never kept or run.
import { Tokenizer } from 'htmlparser2';

/** Elements whose content is code or embedded media, not words anyone wrote about the incident. */
const DROPPED = new Set(['script', 'style', 'noscript', 'template', 'iframe', 'object', 'svg']);
/** Elements that end a line where they open or close. */
const BLOCK = new Set([
  'p',
  'div',
  'li',
  'ul',
  'ol',
  'tr',
  'table',
  'section',
  'article',
  'header',
  'footer',
  'blockquote',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'pre',
  'dd',
  'dt',
]);

export interface HtmlText {
  text: string;
  /** The page's <title>, or its first <h1> when it has none. */
  title?: string;
}

export function looksLikeHtml(text: string): boolean {
  return (
    /<(?:!doctype html|html|head|body|div|p|script|style|br|h[1-6]|li|ul|span|table|article|section)\b[^<>]{0,2000}>/i.test(
      text.slice(0, 20_000),
    ) && /<\/\w+>/.test(text.slice(0, 200_000))
  );
}

export function htmlToText(html: string): HtmlText {
  const parts: string[] = [];
  let dropped = 0;
  let tag = '';
  let title: string[] | undefined;
  let heading: string[] | undefined;
  let titleText: string | undefined;
  let headingText: string | undefined;
  const emit = (text: string) => {
    if (dropped > 0) return;
    if (title) title.push(text);
    else parts.push(text);
    heading?.push(text);
  };
  const opened = (name: string) => {
    if (DROPPED.has(name)) dropped++;
    if (dropped > 0) return;
    if (name === 'title' && titleText === undefined) title = [];
    else if (name === 'h1' && headingText === undefined) heading = [];
    if (name === 'br') parts.push('\n');
    else if (name === 'li') parts.push('\n- ');
    else if (BLOCK.has(name)) parts.push('\n');
  };
  const closed = (name: string) => {
    if (DROPPED.has(name)) {
      dropped = Math.max(0, dropped - 1);
      return;
    }
    if (dropped > 0) return;
    if (name === 'title' && title) {
      titleText = flat(title.join(''));
      title = undefined;
    } else if (name === 'h1' && heading) {
      headingText = flat(heading.join(''));
      heading = undefined;
    }
    if (BLOCK.has(name)) parts.push('\n');
  };
  // The tokenizer alone: htmlParser2's Parser keeps a stack of open elements that costs quadratic time on a deep pile of
  // unclosed tags, and a text needs no tree.
  const tokenizer = new Tokenizer(
    { decodeEntities: true, recognizeSelfClosing: true },
    {
      ontext: (start, end) => emit(html.slice(start, end)),
      ontextentity: (codepoint) => emit(String.fromCodePoint(codepoint)),
      oncdata: (start, end) => emit(html.slice(start, end)),
      onopentagname: (start, end) => {
        tag = html.slice(start, end).toLowerCase();
      },
      onopentagend: () => opened(tag),
      onselfclosingtag: () => {
        opened(tag);
        if (tag !== 'br') closed(tag);
      },
      onclosetag: (start, end) => closed(html.slice(start, end).toLowerCase()),
      onattribdata: () => undefined,
      onattribentity: () => undefined,
      onattribend: () => undefined,
      onattribname: () => undefined,
      oncomment: () => undefined,
      ondeclaration: () => undefined,
      onprocessinginstruction: () => undefined,
      onend: () => undefined,
    },
  );
  tokenizer.write(html);
  tokenizer.end();
  const text = parts
    .join('')
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const pageTitle = titleText || headingText;
  return { text, ...(pageTitle ? { title: pageTitle } : {}) };
}

/** Plain text of a fragment (an update body, a feed's <small> stamp). */
export function fragmentText(html: string): string {
  return htmlToText(html).text;
}

/** Entities alone, for text that is not HTML but carries them (a CDATA title, an Azure category). */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return htmlToText(text.replace(/</g, '&lt;')).text;
}

function flat(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
