// The one HTML-to-text for every reader (update bodies, feed content, whole incident pages). htmlparser2's tokenizer is a
// single pass, so hostile input (a megabyte of "<", unterminated comments or scripts) costs linear time; the text inside
// <script>, <style> and the like is dropped whole, never kept or run.
import { Parser } from 'htmlparser2';

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
  let title: string[] | undefined;
  let heading: string[] | undefined;
  let titleText: string | undefined;
  let headingText: string | undefined;
  const parser = new Parser(
    {
      onopentag(name) {
        if (DROPPED.has(name)) dropped++;
        else if (dropped > 0) return;
        else if (name === 'title' && titleText === undefined) title = [];
        else if (name === 'h1' && headingText === undefined) heading = [];
        if (name === 'br') parts.push('\n');
        else if (name === 'li') parts.push('\n- ');
        else if (BLOCK.has(name)) parts.push('\n');
      },
      ontext(text) {
        if (dropped > 0) return;
        if (title) title.push(text);
        else parts.push(text);
        heading?.push(text);
      },
      onclosetag(name) {
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
      },
    },
    { decodeEntities: true, lowerCaseTags: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
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
