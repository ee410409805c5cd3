import { describe, expect, it } from 'vitest';
import { buildMatcher, exposuresFor } from '../../src/catalog/matcher.js';
import type { Dependency } from '../../src/model.js';
import { testCatalog } from '../helpers/catalog.js';

const npm = (via: string[], extra: Partial<Dependency> = {}): Dependency => ({
  ecosystem: 'npm',
  name: via[via.length - 1] as string,
  version: '1.0.0',
  file: 'package-lock.json',
  direct: via.length === 2,
  via,
  workspace: via[0],
  ...extra,
});

describe("a repository that is a provider's own code", () => {
  const catalog = testCatalog([], {
    extra: [
      { id: 'dub', platform: 'statuspage', url: 'https://status.dub.co', npm: ['dub', '@dub/analytics'] },
      { id: 'langfuse', platform: 'statuspage', url: 'https://status.langfuse.com', npm: ['langfuse'] },
      { id: 'stripe', platform: 'statuspage', url: 'https://status.stripe.com', npm: ['stripe'] },
    ],
  });
  const matcher = buildMatcher(catalog);
  const run = (dependencies: Dependency[]) => {
    const { exposures, own } = exposuresFor(dependencies, matcher, catalog);
    return { providers: exposures.map((exposure) => exposure.provider).sort(), own };
  };

  it('leaves out the vendor whose npm scope its workspace packages share, and keeps every other provider', () => {
    const result = run([
      npm(['@dub/site', '@dub/analytics']),
      npm(['@dub/site', 'stripe']),
      npm(['@dub/site', '@dub/ui']),
    ]);
    expect(result.providers).toEqual(['stripe']);
    expect(result.own).toMatchObject([{ provider: 'dub', scope: '@dub', workspace: '@dub/site' }]);
    expect(result.own[0]?.evidence.map((dependency) => dependency.name)).toEqual(['@dub/analytics']);
  });

  it("takes an unscoped SDK named like the repository's scope for the vendor's own (@langfuse/shared and langfuse)", () => {
    const result = run([npm(['@langfuse/shared', 'langfuse']), npm(['web', 'stripe'])]);
    expect(result.providers).toEqual(['stripe']);
    expect(result.own.map((entry) => entry.provider)).toEqual(['langfuse']);
  });

  it("keeps the vendor for a customer: an unscoped app, or another scope's workspace, using the vendor's SDK", () => {
    expect(run([npm(['papermark', 'dub']), npm(['papermark', '@dub/analytics'])])).toEqual({
      providers: ['dub'],
      own: [],
    });
    expect(run([npm(['@acme/web', '@dub/analytics'])]).own).toEqual([]);
    // A scope seen only deep in a third-party chain is not the repository's: only chains' first packages are.
    expect(run([npm(['web', '@dub/embed-react', '@dub/analytics'], { workspace: 'web' })]).own).toEqual([]);
  });
});
