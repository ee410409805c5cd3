import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { chooseProvider } from '../../../src/incidents/import/provider.js';
import { catalog } from './helpers.js';

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
        'both.txt: cannot tell which provider this incident belongs to (candidates: github, trello); pass --provider ID',
      ),
    );
  });

  it('names an upstream cause as upstream, not as the provider', () => {
    const text =
      'Northwind Platform ingress was slow. The root cause was an Amazon Web Services load balancer fault, AWS said.';
    expect(chooseProvider(hints(['Northwind Platform ingress slow'], text), catalog, undefined, 'a')).toEqual({
      provider: 'northwind',
      upstream: ['aws'],
    });
    expect(() =>
      chooseProvider(
        hints(['Ingress slow'], 'Following an AWS incident the ingress was slow. AWS say the cause was a race.'),
        catalog,
        undefined,
        'log.md',
      ),
    ).toThrow(
      /log\.md: cannot tell which provider this incident belongs to \(candidates: aws \(named as an upstream cause\)\); pass --provider ID/,
    );
  });

  it('lets --provider win and checks it exists', () => {
    expect(chooseProvider(hints(['Ruvna outage']), catalog, 'trello', 'a').provider).toBe('trello');
    expect(() => chooseProvider(hints(['Ruvna outage']), catalog, 'nope', 'a')).toThrow(/unknown provider "nope"/);
  });
});
