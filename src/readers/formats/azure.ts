// Azure status RSS (https://azure.status.microsoft/en-us/status/feed/): only ongoing, broad issues; each item's
// categories mix services and regions, the guid is a title slug that later incidents reuse, and a resolved
// item simply leaves the feed — so the feed is the complete list of what is open now.
import { onPage } from '../platform.js';
import { parseFeed } from './feed.js';
import type { EntryProblem, ReaderContext, ReaderResult } from '../types.js';
import { fragmentText } from '../text/html.js';
import { platformDraft, sortOut } from '../draft.js';

const GEOGRAPHY =
  /^(?:(?:north|south|east|west|central|southeast|northeast|southwest|northwest|west central|north central|south central|east central)\s+)?(?:us|europe|asia|asia pacific|japan|india|australia|brazil|canada|france|germany|korea|norway|switzerland|uae|uk|africa|sweden|poland|italy|qatar|israel|mexico|spain|new zealand|taiwan|indonesia|malaysia|chile|austria|belgium|denmark|finland|greece)(?:\s+(?:east|west|north|south|central|\d))*(?:\s+\d)?$/i;

/** "West US 2" → "westus2", the ARM location id the catalog and host patterns use. */
export function azureRegionId(display: string): string {
  return display.toLowerCase().replace(/[^a-z0-9]/g, '');
}

export function parseAzureFeed(text: string, given: ReaderContext): ReaderResult {
  const context = onPage(given, 'https://azure.status.microsoft/en-us/status');
  const feed = parseFeed(text, context.source);
  const problems: EntryProblem[] = [];
  const drafts = sortOut(
    feed.items.map((item) => {
      const regions: string[] = [];
      const services: string[] = [];
      for (const category of item.categories) {
        const id = azureRegionId(category);
        if (context.regions?.has(id) || GEOGRAPHY.test(category.trim())) regions.push(id);
        else services.push(category.trim());
      }
      return platformDraft(
        {
          format: 'azure',
          id: item.id,
          title: item.title.trim(),
          url: item.link,
          status: 'investigating',
          impact: 'unknown',
          components: services,
          regions,
          startedAt: item.published,
          resolvedAt: null,
          updates: [{ at: item.published, status: 'update', body: fragmentText(item.html) }],
        },
        context,
      );
    }),
    problems,
  );
  return { drafts, listsAllOpen: true, problems };
}
