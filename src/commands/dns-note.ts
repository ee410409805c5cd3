// The one line a run says when it did not look up the DNS of domains that needed it.
import type { DnsSummary } from '../dns/stage.js';

export function dnsNote(summary: DnsSummary | undefined): string | undefined {
  const skipped = summary?.skipped;
  if (!skipped) return undefined;
  const names =
    skipped.names === 1 ? '1 domain that names no provider was' : `${skipped.names} domains that name no provider were`;
  return `note: DNS lookups are off (${skipped.reason}): ${names} matched by name only`;
}
