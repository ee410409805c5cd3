// DNS answers are remote text: the evidence line shows them cleaned, and says the chain in order.
import { describe, expect, it } from 'vitest';
import type { Dependency } from '../../src/model.js';
import { dnsChainText, evidenceText } from '../../src/report/locate.js';

const base: Dependency = {
  ecosystem: 'domain',
  name: 'www.acme.com',
  file: 'domains.txt',
  line: 3,
  direct: true,
  via: [],
};

describe('DNS evidence text', () => {
  it('shows a chain hop by hop, naming a record only where it is not the previous answer', () => {
    expect(
      evidenceText({
        ...base,
        dns: [
          { name: 'www.acme.com', type: 'CNAME', value: 'edge.acme.net' },
          { name: 'edge.acme.net', type: 'CNAME', value: 'cname.vercel-dns.com' },
        ],
      }),
    ).toBe('domains.txt:3 www.acme.com → CNAME edge.acme.net → CNAME cname.vercel-dns.com');
    expect(
      dnsChainText([
        { name: 'acme.com', type: 'SPF', value: 'include:_spf.acme.com' },
        { name: '_spf.acme.com', type: 'SPF', value: 'include:sendgrid.net' },
      ]),
    ).toBe('→ SPF include:_spf.acme.com → SPF include:sendgrid.net');
  });

  it('strips terminal escapes and bidi controls from answers', () => {
    const text = evidenceText({
      ...base,
      name: 'acme.com',
      dns: [{ name: 'acme.com', type: 'TXT', value: 'stripe-verification=\u001b[31mred\u001b[0m\u202eevil' }],
    });
    expect(text).toBe('domains.txt:3 acme.com → TXT stripe-verification=redevil');
  });
});
