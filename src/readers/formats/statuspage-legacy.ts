// Statuspage records imported from a page's older history (GitHub's before 2019, among others) hold every post in one
// update whose body is a list — `<ul><li><strong>2018-11-07 20:04:18</strong> - text</li>…</ul>` — stamped in the
// page's own zone, with resolved_at set to the first stamp. The list is the incident's real timeline: its first
// stamp is when it was posted and its last when the page last spoke, so each item becomes an update of its own.
import { fragmentText } from '../text/html.js';

const STAMP = /^\s*<strong>\s*(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d(?::\d\d)?)\s*<\/strong>\s*(?:-|–|—)?\s*/i;
/** A page's zone is at most 14 hours from UTC, and zones are whole quarter hours. */
const MAX_OFFSET_MS = 14 * 3_600_000;
const QUARTER_HOUR_MS = 900_000;
/** More list items than this is not a status history (and would only cost time). */
const MAX_POSTS = 500;

export interface LegacyPost {
  at: string;
  body: string;
}

/**
 * The posts of a one-body record, in UTC, or undefined when the body is not such a list. `firstPostAt` is the
 * record's own time for its first post (display_at or created_at, in UTC): the difference from the first stamp is
 * the page's offset, which the stamps do not write.
 */
export function legacyPosts(body: string, firstPostAt: string | undefined): LegacyPost[] | undefined {
  if (!firstPostAt || !/^\s*<ul>\s*<li>/i.test(body)) return undefined;
  // Split on the item tags (linear), then read each item's stamp with an anchored pattern.
  const items = body.split(/<li>/i).slice(1);
  if (items.length === 0 || items.length > MAX_POSTS) return undefined;
  const stamped: Array<{ local: number; text: string }> = [];
  for (const item of items) {
    const match = STAMP.exec(item);
    if (!match) return undefined;
    const local = Date.parse(`${match[1]}T${match[2]?.length === 5 ? `${match[2]}:00` : match[2]}Z`);
    if (Number.isNaN(local)) return undefined;
    const end = item.search(/<\/li>/i);
    stamped.push({ local, text: item.slice(match[0].length, end < 0 ? undefined : end) });
  }
  const offset = Math.round((Date.parse(firstPostAt) - (stamped[0]?.local ?? Number.NaN)) / 1000) * 1000;
  if (!Number.isFinite(offset) || Math.abs(offset) > MAX_OFFSET_MS || offset % QUARTER_HOUR_MS !== 0) return undefined;
  return stamped.map((post) => ({
    at: `${new Date(post.local + offset).toISOString().slice(0, 19)}Z`,
    body: fragmentText(post.text),
  }));
}
