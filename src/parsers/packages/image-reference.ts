// Variables in image references (`node:${NODE_VERSION:-20}`, `$REGISTRY/app`), filled the way Compose, GitLab CI and
// Docker build arguments fill them: a value, else the `:-`/`-` default. What stays unknown is fine in a tag, not in
// the registry part, which is what names the provider.

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-+?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

export type ImageResolution = { image: string } | { unknown: string };

export function resolveImage(reference: string, values: ReadonlyMap<string, string>): ImageResolution {
  let unknownInRegistry: string | undefined;
  const slash = reference.indexOf('/');
  const image = reference.replace(
    VARIABLE,
    (_whole, braced: string | undefined, operator: string | undefined, fallback: string, bare: string, at: number) => {
      const name = (braced ?? bare) as string;
      const known = values.get(name);
      if (operator === ':-' || operator === '-')
        return (operator === ':-' ? known || fallback : (known ?? fallback)) ?? '';
      if (operator === ':+' || operator === '+') return known ? fallback : '';
      if (known !== undefined) return known;
      if (slash < 0 || at < slash) unknownInRegistry ??= name;
      return `\${${name}}`;
    },
  );
  // A bare name with an unknown variable (`$IMAGE`) could be any registry; so could `${REGISTRY}/app`.
  if (unknownInRegistry !== undefined && (slash >= 0 || /^\$\{[^}]+\}(:|@|$)/.test(image)))
    return { unknown: unknownInRegistry };
  return { image };
}
