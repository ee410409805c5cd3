// What answered when a published index was asked (`--index-url`): said on stderr and in the report's header, so a
// CI log shows whether the gate decided on the fleet's index, on an older cached copy of it, or on the local index.
import type { PublishedSource } from '../incidents/published.js';
import { cleanLine, joinText, type SafeText, text } from '../sanitize.js';
import { formatAgo } from '../time.js';

/** One line for the report header. */
export function publishedHeader(source: PublishedSource, now: Date): SafeText {
  const url = cleanLine(source.url, 200);
  const age = source.publishedAt ? `published ${formatAgo(source.publishedAt, now)}` : 'publication time unknown';
  if (source.state === 'fresh') return text`index: published index ${url} (${age})`;
  if (source.state === 'cached') return text`index: cached copy of ${url} (${age}; unreachable now)`;
  return text`index: local index ${cleanLine(source.localDir, 200)} (${url} unreachable and never cached)`;
}

/** The stderr lines: which source answered, and any provider file that was refused. */
export function publishedNote(source: PublishedSource, now: Date): SafeText {
  const url = cleanLine(source.url, 200);
  const age = source.publishedAt ? `published ${formatAgo(source.publishedAt, now)}` : '';
  const reason = cleanLine(source.reason ?? 'unknown reason', 300);
  const lines: SafeText[] = [];
  if (source.state === 'fresh')
    lines.push(
      text`incidents: published index ${url} (${age}; ${source.fetched.length} provider files downloaded, ${source.cached.length} unchanged)`,
    );
  else if (source.state === 'cached')
    lines.push(text`warning: published index ${url} could not be read (${reason}); using its cached copy (${age})`);
  else
    lines.push(
      text`warning: published index ${url} could not be read (${reason}) and no copy is cached; using the local index at ${cleanLine(source.localDir, 200)} and the embedded snapshot`,
    );
  for (const refused of source.refused)
    lines.push(
      text`warning: published index: refused ${cleanLine(refused, 300)}; the cached copy or the local index answered for it`,
    );
  return joinText(lines);
}
