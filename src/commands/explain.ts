// `downstack explain <provider|package> [paths...]`: why is this in the stack? Prints each dependency chain
// (root first) that leads to the provider's packages, or to the named package, per file and workspace.
import type { Command } from 'commander';
import type { Catalog } from '../catalog/loader.js';
import { buildMatcher, exposuresFor } from '../catalog/matcher.js';
import { createDnsStage } from '../dns/stage.js';
import { EXIT } from '../errors.js';
import { type CliContext, dnsSettings, type ResolveFlags } from './context.js';
import { dnsNote } from './dns-note.js';
import type { Dependency } from '../model.js';
import { reachOf } from '../reach.js';
import { dnsChainText } from '../report/locate.js';
import { byName } from '../text-order.js';
import { cleanLine, joinText, jsonDocument, type SafeText, text } from '../sanitize.js';
import { ownPackages, scanPaths } from '../scan.js';
import { chainLength } from '../via-chain.js';

export interface Explanation {
  /** Provider id when the target named a provider (or one it runs on); undefined for a bare package name. */
  provider?: string;
  providerName?: string;
  /** Set when the exposure is inherited from a provider running on this one. */
  through?: string;
  /** Set when the repository is the provider's own code, so the stack leaves the provider out (check's ownProviders). */
  own?: { scope: string; workspace: string };
  chains: Dependency[];
}

/** The chains behind a provider id (or name) or an npm package name, shortest first. */
export function explainTarget(
  target: string,
  dependencies: Dependency[],
  catalog: Catalog,
  ownPackages: readonly string[] = [],
): Explanation[] {
  const wanted = target.toLowerCase();
  const provider = [...catalog.providers.values()].find(
    (entry) => entry.id === wanted || entry.name.toLowerCase() === wanted,
  );
  if (!provider) {
    const chains = dependencies.filter((dependency) => dependency.name === target);
    return chains.length > 0 ? [{ chains: sortChains(chains) }] : [];
  }
  const { exposures, own } = exposuresFor(dependencies, buildMatcher(catalog), catalog, ownPackages);
  const ownEntry = own.find((entry) => entry.provider === provider.id);
  if (ownEntry)
    return [
      {
        provider: provider.id,
        providerName: provider.name,
        own: { scope: ownEntry.scope, workspace: ownEntry.workspace },
        chains: sortChains(ownEntry.evidence),
      },
    ];
  return exposures
    .filter((exposure) => exposure.provider === provider.id)
    .map((exposure) => ({
      provider: provider.id,
      providerName: provider.name,
      ...(exposure.through ? { through: exposure.through } : {}),
      chains: sortChains(exposure.evidence),
    }));
}

function sortChains(chains: Dependency[]): Dependency[] {
  return [...chains].sort(
    (a, b) =>
      byName(a.file, b.file) ||
      byName(a.workspace ?? '', b.workspace ?? '') ||
      chainLength(a) - chainLength(b) ||
      byName(a.via.join('\u0000'), b.via.join('\u0000')),
  );
}

export function renderExplanations(target: string, explanations: Explanation[]): SafeText {
  const lines: SafeText[] = [];
  for (const explanation of explanations) {
    const title = explanation.provider
      ? text`${cleanLine(explanation.providerName ?? explanation.provider)} (${explanation.provider})${explanation.through ? text`, through ${explanation.through} which runs on it` : ''}${explanation.own ? text`, left out of the stack: this is its own repository (${cleanLine(explanation.own.workspace)} shares its scope ${cleanLine(explanation.own.scope)})` : ''}`
      : text`${cleanLine(target)}`;
    lines.push(text`${title}: ${explanation.chains.length} chain${explanation.chains.length === 1 ? '' : 's'}`);
    let group = '';
    for (const dependency of explanation.chains) {
      const heading = text`${dependency.file}${dependency.workspace ? text` [workspace ${cleanLine(dependency.workspace)}]` : ''}`;
      if (heading.text !== group) {
        lines.push(text`  ${heading}`);
        group = heading.text;
      }
      const chain = chainText(dependency.via);
      const version = dependency.version ? text`@${cleanLine(dependency.version, 60)}` : '';
      // How it reaches the stack (src/reach.ts), then how it is declared where that says more.
      const reach = reachOf(dependency);
      const tags = [
        reach,
        dependency.kind && dependency.kind !== 'prod' && dependency.kind !== reach
          ? `${dependency.kind} only`
          : undefined,
      ]
        .filter(Boolean)
        .join(', ');
      const where = dependency.line ? `  (line ${dependency.line})` : '';
      const dns = dependency.dns ? text` ${dnsChainText(dependency.dns)}` : '';
      lines.push(text`    ${chain}${version}${dns}  [${tags}]${where}`);
    }
  }
  return text`${joinText(lines)}\n`;
}

/** A chain root first; one too long to read (a generated lockfile can nest thousands deep) keeps its two ends. */
function chainText(via: string[]): SafeText {
  const shown = via.length > 40 ? [...via.slice(0, 20), `… ${via.length - 40} more …`, ...via.slice(-20)] : via;
  return joinText(
    shown.map((step) => text`${cleanLine(step, 120)}`),
    text` → `,
  );
}

interface ExplainFlags extends ResolveFlags {
  format: 'text' | 'json';
  omit?: string[];
}

export async function runExplainCommand(
  command: Command,
  context: CliContext,
  target: string,
  paths: string[],
): Promise<void> {
  const settings = await context.settings<ExplainFlags>('explain', command, paths);
  const { flags } = settings;
  const catalog = settings.catalog();
  const scan = await scanPaths(paths, { readStdin: context.readStdin });
  const omitDev = flags.omit?.includes('dev') ?? false;
  const dependencies = scan.inputs
    .flatMap((input) => input.dependencies)
    .filter((dependency) => !(omitDev && dependency.kind === 'dev'));
  const dns = createDnsStage(dnsSettings(flags, context));
  const resolved = await dns.resolve(dependencies, buildMatcher(catalog)).finally(() => dns.close());
  context.reportProblems([...scan.errors, ...scan.inputs.flatMap((input) => input.errors), ...resolved.problems]);
  const skipped = dnsNote(dns.summary());
  if (skipped) context.stderr.write(`${skipped}\n`);
  const explanations = explainTarget(target, [...dependencies, ...resolved.found], catalog, ownPackages(scan.inputs));
  if (flags.format === 'json') await context.emit(jsonDocument(explanations));
  else if (explanations.length > 0) await context.emit(renderExplanations(target, explanations));
  else await context.emit(text`${cleanLine(target)} is not in the scanned stack (${paths.join(', ')}).\n`);
  if (explanations.length === 0) context.setExitCode(EXIT.notInStack);
}
