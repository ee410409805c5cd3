// Google Cloud Service Health (https://status.cloud.google.com/incidents.json, schema at /incidents.schema.json;
// Google Workspace serves the same shape): a bare array, newest updates first, `end` empty while open,
// products in affected_products (service_name is often "Multiple Products"), regions as location ids.
import { parseJsonText } from '../../json-text.js';
import type { IncidentImpact } from '../../model.js';
import { ReaderError, type EntryProblem, type ReaderContext, type ReaderResult } from '../types.js';
import { arr, onPage, componentName, rec, safeUrl, str } from '../platform.js';
import { machineTime } from '../time/machine.js';
import { platformDraft, sortOut } from '../draft.js';

const IMPACT: Record<string, IncidentImpact> = {
  SERVICE_OUTAGE: 'critical',
  SERVICE_DISRUPTION: 'major',
  SERVICE_INFORMATION: 'minor',
};

export function parseGcp(text: string, given: ReaderContext): ReaderResult {
  const context = onPage(given, 'https://status.cloud.google.com');
  const data = context.json ?? parseJsonText(text, context.source);
  if (!Array.isArray(data))
    throw new ReaderError(
      context.source,
      `expected the incidents.json array, found ${data === null ? 'null' : typeof data}`,
    );
  const problems: EntryProblem[] = [];
  const drafts = sortOut(
    data.map((raw) => {
      const item = rec(raw);
      const end = machineTime(item.end);
      const locations = [
        ...arr(item.currently_affected_locations),
        ...arr(item.previously_affected_locations),
        ...arr(item.updates).flatMap((update) => arr(rec(update).affected_locations)),
      ];
      const locationIds = locations
        .map((location) => str(rec(location).id))
        .filter((id): id is string => id !== undefined);
      const products = arr(item.affected_products).map(rec);
      const named =
        products.length > 0
          ? products
          : str(item.service_name) && item.service_name !== 'Multiple Products'
            ? [{ id: item.service_key, title: item.service_name }]
            : [];
      const updates = arr(item.updates).map((rawUpdate) => {
        const update = rec(rawUpdate);
        return {
          at: machineTime(update.when) ?? machineTime(update.created),
          status: (str(update.status) ?? '').toLowerCase(),
          body: str(update.text) ?? '',
        };
      });
      return platformDraft(
        {
          format: 'gcp',
          // `id` is the stable key; `number` is a decimal string beyond 2^53 and must stay a string.
          id: str(item.id) ?? str(item.number),
          title: str(item.external_desc),
          // `uri` is relative to the dashboard root (`incidents/<id>`).
          url: safeUrl(item.uri, `${(context.pageUrl ?? '').replace(/\/+$/, '')}/`),
          status: end ? 'resolved' : 'investigating',
          impact: IMPACT[str(item.status_impact) ?? ''] ?? 'unknown',
          components: named
            .map((product) => componentName(product.id, product.title, context))
            .filter((name): name is string => name !== undefined),
          // A `global` location touches every region, so the incident is not narrowed to the others listed.
          regions: locationIds.includes('global') ? [] : locationIds,
          startedAt: machineTime(item.begin) ?? machineTime(item.created),
          // `begin` and `end` are the impact window Google Cloud publishes; a time its long reports give outside them
          // is read under another day's heading.
          windowIsData: machineTime(item.begin) !== undefined,
          resolvedAt: end ?? null,
          updates,
        },
        context,
      );
    }),
    problems,
  );
  return { drafts, problems };
}
