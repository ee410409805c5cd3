// SPF records (RFC 7208 §4.6, §5.2, §6.1): the `include:` and `redirect=` terms name the mail services allowed to send
// for a domain, which is what tells us a team sends through SendGrid, Mailgun or Google.

/** `include:sendgrid.net` and `redirect=_spf.example.com` terms of one SPF record, as written (qualifier dropped). */
export function spfTerms(record: string): string[] {
  if (!/^v=spf1(\s|$)/i.test(record.trim())) return [];
  const terms: string[] = [];
  for (const word of record.trim().split(/\s+/).slice(1)) {
    const term = /^[+?~-]?(include:|redirect=)([^\s/]+)$/i.exec(word);
    if (term) terms.push(`${(term[1] ?? '').toLowerCase()}${(term[2] ?? '').toLowerCase().replace(/\.$/, '')}`);
  }
  return terms;
}

/** The domain an SPF term points at. */
export function spfDomain(term: string): string {
  return term.replace(/^(include:|redirect=)/i, '');
}

export function isSpfRecord(text: string): boolean {
  return /^v=spf1(\s|$)/i.test(text.trim());
}
