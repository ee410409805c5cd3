// Small helpers for the structured-payload readers: typed access to untrusted JSON, links, component names.
import type { ReaderContext } from './types.js';

export const str = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
export const arr = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
export const rec = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** The longest link kept; anything longer is not a status page's. */
export const MAX_URL = 2048;

/** An http(s) URL (relative ones resolved against `base`), or undefined: `javascript:` and `file:` links are never stored. */
export function safeUrl(value: unknown, base?: string): string | undefined {
  const text = str(value)?.trim();
  if (!text) return undefined;
  try {
    const url = new URL(text, base && /^https?:/i.test(base) ? base : undefined);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.href.length > MAX_URL ? undefined : url.href;
  } catch {
    return undefined; // not a URL at all: the caller falls back to the page URL
  }
}

/** The component's catalog (or components.json) name when its id is known, else the payload's name. */
export function componentName(id: unknown, name: unknown, context: ReaderContext): string | undefined {
  const key = str(id);
  const known = key ? context.componentNames.get(key) : undefined;
  return known ?? str(name);
}

/** Names from a list, dropping the ones that are not strings. */
export function names(values: Array<string | undefined>): string[] {
  return values.filter((value): value is string => value !== undefined && value !== '');
}

/** A single-vendor format read without a page URL (an imported file) is that vendor's page: links and hints use it. */
export function onPage(context: ReaderContext, pageUrl: string): ReaderContext {
  return context.pageUrl ? context : { ...context, pageUrl };
}
