// `downstack providers [QUERY]` searches the catalog; `providers show ID` prints one provider with its matchers.
import type { Command } from 'commander';
import type { Provider } from '../catalog/schema.js';
import { MATCHER_KINDS, matcherText, matchersOf } from '../catalog/matchers.js';
import { UsageError } from '../errors.js';
import { addOptions } from '../settings/options.js';
import type { CliContext } from './context.js';

export function registerProvidersCommand(program: Command, context: CliContext): void {
  const providers = program
    .command('providers')
    .description('list or search the provider catalog; `providers show ID` prints one provider')
    .argument('[query]', 'text to search in ids, names, npm names, Terraform sources and domains');
  addOptions(providers, 'providers').action(async (query: string | undefined) => {
    const settings = await context.settings<{ format: string }>('providers', providers, []);
    const flags = settings.flags;
    const found = searchProviders([...settings.catalog().providers.values()], query);
    if (flags.format === 'json') {
      await context.emit(
        `${JSON.stringify(
          found.map(({ file: _file, ...provider }) => provider),
          null,
          2,
        )}\n`,
      );
      return;
    }
    if (found.length === 0) await context.emit(`No provider matches "${query}". To add one, see CONTRIBUTING.md.\n`);
    const rows = found.map(
      (provider) =>
        `${provider.id.padEnd(22)} ${provider.name.padEnd(30)} ${provider.category.padEnd(14)} ${provider.status.url}${provider.verified === false ? '  (unverified)' : ''}\n`,
    );
    await context.emit(rows.join(''));
  });

  const show = providers
    .command('show')
    .description('print one provider: status page, feed, matchers, components, upstreams')
    .argument('<id>', 'provider id (file name in providers/)');
  addOptions(show, 'providers show').action(async (id: string) => {
    const settings = await context.settings<object>('providers show', show, []);
    const provider = settings.catalog().providers.get(id);
    if (!provider) throw new UsageError(`unknown provider "${id}" (search with \`downstack providers ${id}\`)`);
    await context.emit(describeProvider(provider));
  });
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

export function describeProvider(provider: Provider): string {
  const lines = [
    `${provider.name} (${provider.id}) · ${provider.category}${provider.parent ? ` · part of ${provider.parent}` : ''}`,
  ];
  lines.push(
    `  status page  ${provider.status.url} (${provider.status.platform}${provider.status.pageId ? `, page ${provider.status.pageId}` : ''})`,
  );
  if (provider.status.feed) lines.push(`  feed         ${provider.status.feed}`);
  for (const endpoint of provider.status.endpoints ?? []) lines.push(`  endpoint     ${endpoint}`);
  if (provider.verified === false)
    lines.push(`  unverified   ${provider.notes ?? 'some facts in this file could not be checked'}`);
  const list = (label: string, values: string[] | undefined) =>
    values?.length && lines.push(`  ${label.padEnd(12)} ${values.join(', ')}`);
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
      (upstream) => `${upstream.provider}${upstream.components?.length ? ` (${upstream.components.join(', ')})` : ''}`,
    ),
  );
  if (provider.components.length > 0) lines.push(`  components`);
  for (const component of provider.components) {
    // A component's DNS matchers say which kind they are; its npm names, prefixes and hosts read as themselves.
    const own = matchers
      .filter((entry) => entry.component === component.name)
      .map((entry) =>
        entry.kind.startsWith('dns-') ? `${MATCHER_KINDS[entry.kind]?.label} ${entry.value}` : matcherText(entry),
      );
    lines.push(
      `    ${component.name}${component.id ? ` [${component.id}]` : ''}${own.length ? ` ← ${own.join(', ')}` : ''}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
