// One order for text everywhere, the same on every machine. `localeCompare` follows the process's locale, so a CI
// runner and a laptop could list the same files in different orders, and its first call loads ICU's collator (13 ms
// of every start-up).

/** By UTF-16 code unit: for times, ids and keys (ISO times compare correctly as text). */
export function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** For names people read: letter case aside first (`Amazon CloudFront` before `AWS Lambda`), then by code unit. */
export function byName(a: string, b: string): number {
  return byText(a.toLowerCase(), b.toLowerCase()) || byText(a, b);
}
