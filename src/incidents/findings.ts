// Cross-reference: which incidents in the window touched a component (and region) the stack uses.
import { type Catalog, findComponent } from '../catalog/catalog.js';
import type { Exposure, Finding, Incident, Reach } from '../model.js';
import { betterReach } from '../reach.js';
import { overlapsWindow, replayWindow } from '../replay.js';
import type { LeadFor } from './lead.js';
import { byText } from '../text-order.js';

export interface FindingOptions {
  since: Date;
  until: Date;
  now: Date;
  includeMaintenance?: boolean;
  /** Moves starts that are only a first post earlier; without it windows start where the page does. */
  leadFor?: LeadFor;
}

const CLOSED = new Set(['resolved', 'postmortem', 'completed']);

export function isActive(incident: Incident): boolean {
  return incident.resolvedAt === null && !CLOSED.has(incident.status);
}

export function findIncidents(
  exposures: Exposure[],
  incidents: Map<string, Incident[]>,
  catalog: Catalog,
  options: FindingOptions,
): Finding[] {
  const findings: Finding[] = [];
  for (const exposure of exposures) {
    for (const incident of incidents.get(exposure.provider) ?? []) {
      if (incident.kind === 'maintenance' && !options.includeMaintenance) continue;
      const replay = replayWindow(incident, options.leadFor?.(incident));
      if (!overlapsWindow(replay, options.since, options.until, options.now)) continue;
      const touched = touchedComponents(exposure, incident, catalog);
      if (!touched) continue;
      findings.push({
        provider: exposure.provider,
        incident,
        components: touched.components,
        active: isActive(incident),
        confidence: touched.confidence,
        ...(exposure.through ? { through: exposure.through } : {}),
        devOnly: exposure.devOnly,
        reach: touched.reach,
        replay,
      });
    }
  }
  return findings.sort((a, b) => Number(b.active) - Number(a.active) || byText(b.replay.from, a.replay.from));
}

/** The exposure's components the incident names, or undefined when it touches none of them. */
function touchedComponents(
  exposure: Exposure,
  incident: Incident,
  catalog: Catalog,
): { components: string[]; confidence: Finding['confidence']; reach: Reach } | undefined {
  const provider = catalog.providers.get(exposure.provider);
  const canonical = (name: string) =>
    provider ? (findComponent(provider, name) ?? findComponent(provider, withoutGroup(name)))?.name : undefined;
  const incidentKeys = new Set(incident.components.flatMap((name) => componentKeys(name, canonical(name))));
  const regional = incident.regions.length > 0;
  const incidentRegions = new Set(incident.regions.map((region) => region.toLowerCase()));
  const inRegion = (region: string | undefined) =>
    region === undefined ? 'possibly' : incidentRegions.has(region.toLowerCase()) ? 'certain' : 'no';
  const whole = wholeProviderVerdict(exposure, regional, inRegion);

  // An incident that names no component concerns the whole provider, so every use of it, however it reaches the stack.
  const reach = exposure.reach;
  if (incident.components.length === 0) {
    if (!regional) return { components: exposure.components.map((c) => c.name), confidence: 'certain', reach };
    const certain = exposure.components.filter((c) => inRegion(c.region) === 'certain').map((c) => c.name);
    // Terraform resources and modules carry their own region, also those the catalog maps to no component
    // (not for an upstream provider: the evidence's regions are those of the provider it runs under).
    const placed = exposure.through
      ? []
      : exposure.evidence
          .filter(
            (dependency) =>
              dependency.ecosystem === 'terraform-resource' || dependency.ecosystem === 'terraform-module',
          )
          .map((dependency) => inRegion(dependency.region));
    if (certain.length > 0 || whole === 'certain' || placed.includes('certain'))
      return { components: [...new Set(certain)], confidence: 'certain', reach };
    if (whole === 'possibly' || placed.includes('possibly') || exposure.components.some((c) => c.region === undefined))
      return { components: [], confidence: 'possibly', reach };
    // Every piece of evidence sits in a known region the incident does not name.
    return undefined;
  }

  const hit = exposure.components.filter((component) =>
    componentKeys(component.name).some((key) => incidentKeys.has(key)),
  );
  const regionOk = hit
    .map((component) => (regional ? inRegion(component.region) : 'certain'))
    .filter((verdict) => verdict !== 'no');
  if (hit.length > 0 && regionOk.length > 0) {
    const touched = hit.filter((c) => !regional || inRegion(c.region) !== 'no');
    const names = [...new Set(touched.map((c) => c.name))];
    // The best way any touched component reaches the stack; a whole-provider SDK touches them all too.
    let best: Reach | undefined = whole === 'no' ? undefined : exposure.wholeProviderReach;
    for (const component of touched) best = betterReach(best, component.reach ?? reach);
    return {
      components: names,
      confidence: regionOk.includes('certain') ? 'certain' : 'possibly',
      reach: best ?? reach,
    };
  }
  // Evidence that points at the provider as a whole (an SDK for everything) is exposed to every component,
  // in its own regions when those are known.
  if (whole !== 'no')
    return { components: incident.components, confidence: whole, reach: exposure.wholeProviderReach ?? reach };
  return undefined;
}

function wholeProviderVerdict(
  exposure: Exposure,
  regional: boolean,
  inRegion: (region: string | undefined) => 'certain' | 'possibly' | 'no',
): 'certain' | 'possibly' | 'no' {
  if (!exposure.wholeProvider) return 'no';
  if (!regional) return 'certain';
  if (!exposure.wholeProviderRegions) return 'possibly';
  return exposure.wholeProviderRegions.some((region) => inRegion(region) === 'certain') ? 'certain' : 'no';
}

/** Names compared case-insensitively, also without the `"<Group> - "` prefix Statuspage adds in updates. */
function componentKeys(name: string, canonical?: string): string[] {
  const keys = [name.toLowerCase().trim(), withoutGroup(name).toLowerCase().trim()];
  if (canonical) keys.push(canonical.toLowerCase());
  return keys;
}

function withoutGroup(name: string): string {
  const dash = name.lastIndexOf(' - ');
  return dash > 0 ? name.slice(dash + 3) : name;
}
