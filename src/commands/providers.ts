// `downstack providers [QUERY]` searches the catalog; `providers show ID` prints one provider with its matchers.
import type { Command } from 'commander';
import type { Provider } from '../catalog/schema.js';
import { MATCHER_KINDS, matcherText, matchersOf } from '../catalog/matchers.js';
import { UsageError } from '../errors.js';
import { cleanLine, joinText, jsonDocument, type SafeText, text } from '../sanitize.js';
import type { CliContext } from './context.js';

export async function runProvidersCommand(command: Command, context: CliContext, query?: string): Promise<void> {
  const settings = await context.settings<{ format: string }>('providers', command, []);
  const flags = settings.flags;
  const found = searchProviders([...settings.catalog().providers.values()], query);
  if (flags.format === 'json') {
    await context.emit(jsonDocument(found.map(({ file: _file, ...provider }) => provider)));
    return;
  }
  if (found.length === 0)
    await context.emit(text`No provider matches "${query ?? ''}". To add one, see CONTRIBUTING.md.\n`);
  const rows = found.map(
    (provider) =>
      text`${provider.id.padEnd(22)} ${cleanLine(provider.name, 60).padEnd(30)} ${provider.category.padEnd(14)} ${cleanLine(provider.status.url, 300)}${provider.verified === false ? '  (unverified)' : ''}\n`,
  );
  await context.emit(joinText(rows, text``));
}

export async function runProvidersShowCommand(command: Command, context: CliContext, id: string): Promise<void> {
  const settings = await context.settings<object>('providers show', command, []);
  const provider = settings.catalog().providers.get(id);
  if (!provider)
    throw new UsageError(
      `unknown provider "${cleanLine(id, 60)}" (search with \`downstack providers ${cleanLine(id, 60)}\`)`,
    );
  await context.emit(describeProvider(provider));
}

export function searchProviders(providers: Provider[], query: string | undefined): Provider[] {
  if (!query) return providers;
  const needle = query.toLowerCase();
  return providers.filter((provider) =>
    [provider.id, provider.name, provider.category, ...matchersOf(provider).map((entry) => entry.value)]
      .join('\n')
      .toLowerCase()
      .includes(needle),
  );
}

/** One provider as the catalog holds it; catalog files may come from a repository, so every field is a value. */
export function describeProvider(provider: Provider): SafeText {
  const lines = [
    text`${cleanLine(provider.name, 120)} (${provider.id}) · ${provider.category}${provider.parent ? text` · part of ${provider.parent}` : ''}`,
  ];
  lines.push(
    text`  status page  ${cleanLine(provider.status.url, 300)} (${provider.status.platform}${provider.status.pageId ? text`, page ${cleanLine(provider.status.pageId, 60)}` : ''})`,
  );
  if (provider.status.feed) lines.push(text`  feed         ${cleanLine(provider.status.feed, 300)}`);
  for (const endpoint of provider.status.endpoints ?? []) lines.push(text`  endpoint     ${cleanLine(endpoint, 300)}`);
  if (provider.verified === false)
    lines.push(
      text`  unverified   ${cleanLine(provider.notes ?? 'some facts in this file could not be checked', 600)}`,
    );
  const list = (label: string, values: string[] | undefined) =>
    values?.length && lines.push(text`  ${label.padEnd(12)} ${names(values)}`);
  const matchers = matchersOf(provider);
  const labels = [...new Set(Object.values(MATCHER_KINDS).map((kind) => kind.label))];
  for (const label of labels)
    list(
      label,
      matchers
        .filter((entry) => entry.component === undefined && MATCHER_KINDS[entry.kind]?.label === label)
        .map(matcherText),
    );
  list('regions', provider.regions);
  list(
    'runs on',
    provider.runsOn?.map(
      (upstream) =>
        `${upstream.provider}${upstream.components?.length ? ` (${upstream.components.map((name) => cleanLine(name, 120)).join(', ')})` : ''}`,
    ),
  );
  if (provider.components.length > 0) lines.push(text`  components`);
  for (const component of provider.components) {
    // A component's DNS matchers say which kind they are; its npm names, prefixes and hosts read as themselves.
    const own = matchers
      .filter((entry) => entry.component === component.name)
      .map((entry) =>
        entry.kind.startsWith('dns-') ? `${MATCHER_KINDS[entry.kind]?.label} ${entry.value}` : matcherText(entry),
      );
    lines.push(
      text`    ${cleanLine(component.name, 120)}${component.id ? text` [${cleanLine(component.id, 60)}]` : ''}${own.length ? text` ← ${names(own)}` : ''}`,
    );
  }
  return text`${joinText(lines)}\n`;
}

function names(values: string[]): SafeText {
  return joinText(
    values.map((value) => text`${cleanLine(value, 200)}`),
    text`, `,
  );
}
