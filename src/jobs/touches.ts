// Evidence of what a job reaches, in its own file: URL hosts in commands and targets (ordinary `domain` dependencies),
// and the container images it runs; the catalog matcher decides which provider each one is.
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
 * The image a job pulls, as a `container-image` dependency: the catalog reads its registry (Docker Hub when the
 * reference names none) and the region the registry host carries, the same way for jobs as for Dockerfiles.
 */
export function imageTouch(image: string, file: string, line: number | undefined, via: string): Dependency[] {
  const trimmed = image.trim();
  if (trimmed === '' || /[{}$]/.test(trimmed)) return [];
  return [
    { ecosystem: 'container-image', name: trimmed, file, ...(line ? { line } : {}), direct: true, via: [via, trimmed] },
  ];
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
