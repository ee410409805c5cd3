// The adapter contract: one platform's payload text in, incidents in our model out. Adapters are pure —
// the sync core owns every request, decode and write, so an adapter can be tested on a string.
import type { Incident } from '../../model.js';

export interface AdapterContext {
  /** Catalog provider id; every incident is stamped with it. */
  provider: string;
  /** The URL the payload came from (recorded as the incident's source, and used to resolve relative links). */
  source: string;
  /** The status page's own URL, used when an incident carries no link of its own. */
  pageUrl: string;
  /** Component id → name from the catalog (and from components.json when fetched in the same sync). */
  componentNames: ReadonlyMap<string, string>;
  /** The catalog's region ids for this provider, when it lists them. */
  regions?: ReadonlySet<string>;
}

export interface AdapterResult {
  incidents: Incident[];
  /** Component id → display name, from payloads that list the page's components. */
  components?: Map<string, string>;
  /**
   * True when the payload lists every incident that is open right now (and nothing else is open), so an
   * incident it no longer lists has been resolved — Azure and AWS drop resolved items instead of closing them.
   */
  listsAllOpen?: boolean;
  /** Items that were skipped, each with the reason; the rest of the payload still counts. */
  problems: string[];
}

/** A payload that is not what the platform serves (wrong shape, HTML instead of JSON…). */
export class AdapterError extends Error {
  override name = 'AdapterError';
}

export type Adapter = (text: string, context: AdapterContext) => AdapterResult;
