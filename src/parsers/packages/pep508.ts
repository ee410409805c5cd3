// The name (and pinned version) in a PEP 508 requirement (https://peps.python.org/pep-0508/): `boto3[crt]>=1.34 ;
// python_version >= "3.9"`, `stripe==9.1.0`, `acme-lib @ https://…/acme_lib-1.0.tar.gz`.

export interface Requirement {
  name: string;
  /** The version specifier as written (`==9.1.0`, `>=1.34,<2`), when there is one. */
  version?: string;
}

const NAME = /^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(\[[^\]]*\])?\s*(.*)$/s;

/** The requirement, or undefined when the text does not start with a distribution name. */
export function parseRequirement(text: string): Requirement | undefined {
  const hit = NAME.exec(text.trim());
  if (!hit) return undefined;
  const name = hit[1] as string;
  let rest = (hit[3] ?? '').split(';')[0]?.trim() ?? '';
  if (rest.startsWith('@')) return { name };
  rest = rest.replace(/^\(|\)$/g, '').trim();
  if (rest && !/^(==|!=|<=|>=|~=|===|<|>)/.test(rest)) return undefined;
  const version = rest.replace(/\s+/g, '');
  // An exact pin (`==9.1.0`) is a version; anything else stays the specifier as written.
  const pinned = /^===?([^,*]+)$/.exec(version)?.[1];
  return version ? { name, version: pinned ?? version } : { name };
}

/** PEP 503's form of a name: lower case, runs of `-`, `_` and `.` as one `-` (lockfiles and pins compare so). */
export function normalizePythonName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}
