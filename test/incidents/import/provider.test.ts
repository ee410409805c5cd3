import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { chooseProvider } from '../../../src/incidents/import/provider.js';
import { catalog } from '../../helpers/import-fixture.js';

const hints = (owners: string[], text = '', urls: string[] = [], extra = {}) => ({ owners, text, urls, ...extra });

describe('chooseProvider', () => {
  it('takes the status page host, the page id or a name in the heading as strong evidence', () => {
    expect(
      chooseProvider(hints([''], '', ['https://status.twingate.com/incidents/abc123']), catalog, undefined, 'a')
        .provider,
    ).toBe('twingate');
    expect(chooseProvider(hints([''], '', [], { pageIds: ['kctbh9vrtdwd'] }), catalog, undefined, 'a').provider).toBe(
      'github',
    );
    expect(chooseProvider(hints(['Ruvna web app outage']), catalog, undefined, 'a').provider).toBe('ruvna');
  });

  it('asks instead of guessing when two providers are named as strongly', () => {
    expect(() => chooseProvider(hints(['GitHub and Trello were both down']), catalog, undefined, 'both.txt')).toThrow(
      new UsageError(
        'both.txt: cannot tell which provider this incident belongs to (too close to call: github (10), trello (10)); pass --provider ID (an id outside the catalog is accepted)',
      ),
    );
  });

  it('names an upstream cause as upstream when the document has an owner, and as the provider when it has none', () => {
    const text =
      'Northwind Platform ingress was slow. The root cause was an Amazon Web Services load balancer fault, AWS said.';
    expect(chooseProvider(hints(['Northwind Platform ingress slow'], text), catalog, undefined, 'a')).toEqual({
      provider: 'northwind',
      upstream: ['aws'],
    });
    expect(
      chooseProvider(
        hints(['Ingress slow'], 'Following an AWS incident the ingress was slow. AWS say the cause was a race.'),
        catalog,
        undefined,
        'log.md',
      ),
    ).toEqual({ provider: 'aws', upstream: [], inferred: '2 mentions of AWS' });
  });

  it('lets --provider win, outside the catalog too, but only with an id that can name a file', () => {
    expect(chooseProvider(hints(['Ruvna outage']), catalog, 'trello', 'a').provider).toBe('trello');
    expect(chooseProvider(hints(['Ruvna outage']), catalog, 'acme-ledger', 'a')).toMatchObject({
      provider: 'acme-ledger',
      outsideCatalog: true,
    });
    expect(() => chooseProvider(hints(['Ruvna outage']), catalog, '../etc/passwd', 'a')).toThrow(
      /is not a provider id/,
    );
  });

  it('answers the provider a log keeps naming, discounting a stray link and a chat channel, and says why', () => {
    const text = [
      'Ingress slow for a quarter of requests',
      'Following an AWS incident the day before, one network interface was slow.',
      'AWS claim the health checking did not mark targets unhealthy behind the Network Load Balancer.',
      'AWS go on to say the subsystem was unaware of the targets. AWS restarted it. AWS say the cause was a race.',
      'Slack thread: #platform-update. Review: https://github.com/acme/platform/issues/12',
    ].join('\n');
    const choice = chooseProvider(
      hints(['Ingress slow'], text, ['https://github.com/acme/platform/issues/12']),
      catalog,
      undefined,
      'log.md',
    );
    expect(choice.provider).toBe('aws');
    expect(choice.inferred).toMatch(/^6 mentions of AWS \/ Network Load Balancer; also mentioned: github 1/);
  });
});
