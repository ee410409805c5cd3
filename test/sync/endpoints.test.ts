import { describe, expect, it } from 'vitest';
import { endpointsFor, unsyncableReason } from '../../src/sync/adapters/index.js';

describe('endpoints from the catalog status block', () => {
  it('derives Statuspage defaults from the page URL: components first, incidents required, the rest optional', () => {
    expect(
      endpointsFor({
        url: 'https://www.githubstatus.com/',
        platform: 'statuspage',
        feed: 'https://www.githubstatus.com/history.rss',
      }),
    ).toEqual([
      { url: 'https://www.githubstatus.com/api/v2/components.json', optional: true },
      { url: 'https://www.githubstatus.com/api/v2/incidents.json', optional: false },
      { url: 'https://www.githubstatus.com/api/v2/scheduled-maintenances.json', optional: true },
      { url: 'https://www.githubstatus.com/history.rss', optional: true },
    ]);
  });

  it('uses explicit endpoints instead of the defaults, and the status.io page id when there are none', () => {
    expect(
      endpointsFor({
        url: 'https://health.aws.amazon.com/health/status',
        platform: 'aws',
        feed: 'https://status.aws.amazon.com/rss/all.rss',
        endpoints: ['https://health.aws.amazon.com/public/currentevents'],
      }),
    ).toEqual([{ url: 'https://health.aws.amazon.com/public/currentevents', optional: false }]);
    expect(
      endpointsFor({ url: 'https://status.gitlab.com', platform: 'statusio', pageId: '5b36dc6502d06804c08349f7' }),
    ).toEqual([{ url: 'https://api.status.io/1.0/status/5b36dc6502d06804c08349f7', optional: false }]);
    expect(endpointsFor({ url: 'https://azure.status.microsoft/en-us/status', platform: 'azure' })).toEqual([
      { url: 'https://azure.status.microsoft/en-us/status/feed/', optional: false },
    ]);
  });

  it('names why a provider cannot be synced', () => {
    expect(unsyncableReason({ url: 'https://status.gitlab.com', platform: 'statusio' })).toMatch(/without a pageId/);
    expect(
      unsyncableReason({
        url: 'https://status.stripe.com',
        platform: 'custom',
        endpoints: ['https://status.stripe.com/current/full'],
      }),
    ).toMatch(/no adapter/);
    expect(
      unsyncableReason({
        url: 'https://status.example.com',
        platform: 'custom',
        feed: 'https://status.example.com/feed.rss',
      }),
    ).toBeUndefined();
  });
});
