// Machine timestamps in JSON and feeds (ISO-8601 with Z or an offset, RFC 822 pubDate) to UTC ISO-8601.

/** UTC ISO string, or undefined when the value is not a timestamp with a zone. */
export function machineTimeToUtc(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const text = value.trim();
  const hasZone = /(?:Z|[+-]\d\d:?\d\d|\b(?:GMT|UTC|UT))$/i.test(text);
  if (!hasZone) return undefined;
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return undefined;
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}
