import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/loader.js';
import { JOB_KINDS } from '../../src/jobs/kinds.js';

describe('job kinds', () => {
  it('name a provider and component of the real catalog for every platform that runs jobs itself', () => {
    const catalog = loadCatalog();
    for (const [kind, info] of Object.entries(JOB_KINDS)) {
      if (!info.runsOn) continue;
      const provider = catalog.providers.get(info.runsOn.provider);
      expect(provider, kind).toBeDefined();
      if (info.runsOn.component)
        expect(
          provider?.components.map((component) => component.name),
          kind,
        ).toContain(info.runsOn.component);
    }
  });
});
