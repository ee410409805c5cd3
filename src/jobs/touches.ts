// Evidence of what a job reaches, in its own file: URL hosts in commands and targets, and container image registries.
// They become ordinary `domain` dependencies, so the catalog matcher decides which provider each one is.
import { normalizeHost } from '../domains.js';
import type { Dependency } from '../model.js';

const URL_HOST = /\bhttps?:\/\/([a-z0-9.-]+\.[a-z]{2,})(?=[:/?#"'\s)]|$)/gi;

/** One `domain` dependency per public host named in an http(s) URL inside `text`. */
export function urlHosts(text: string, file: string, line: number | undefined, via: string): Dependency[] {
  const hosts = new Set<string>();
  for (const match of text.matchAll(URL_HOST)) {
    const result = normalizeHost(match[1] as string);
    if (result.ok) hosts.add(result.entry.host);
  }
  return [...hosts].map((host) => domain(host, file, line, via));
}

/**
 * The registry a container image is pulled from: the first path part when it has a dot or a port
 * (`ghcr.io/org/app`, `123.dkr.ecr.eu-west-1.amazonaws.com/app`), otherwise Docker Hub.
 */
export function imageRegistry(image: string, file: string, line: number | undefined, via: string): Dependency[] {
  const trimmed = image.trim();
  if (trimmed === '' || /[{}$]/.test(trimmed)) return [];
  const first = trimmed.split('/')[0] as string;
  const explicit = trimmed.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost');
  const host = explicit ? first.replace(/:\d+$/, '') : 'registry-1.docker.io';
  const result = normalizeHost(host);
  return result.ok ? [domain(result.entry.host, file, line, via)] : [];
}

function domain(host: string, file: string, line: number | undefined, via: string): Dependency {
  return { ecosystem: 'domain', name: host, file, ...(line ? { line } : {}), direct: true, via: [via, host] };
}

/** The same host named twice in one job counts once. */
export function uniqueTouches(touches: Dependency[]): Dependency[] {
  const seen = new Set<string>();
  return touches.filter((touch) => {
    const key = `${touch.ecosystem}\u0000${touch.name}\u0000${touch.region ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
