// Domain lists: one host, URL, host:port or *.wildcard per line, `#` comments; or CSV with a host column.
import { normalizeHost } from '../domains.js';
import type { Dependency } from '../model.js';
import { basename, type Parser, type ParseResult } from './types.js';

const HOST_COLUMNS = /^(host|hostname|domain|domain_name|fqdn|url|endpoint|name)$/i;

/** Splits one CSV record, honouring double quotes (RFC 4180 without embedded newlines). */
function splitCsv(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      cells.push(cell.trim());
      cell = '';
    } else cell += char;
  }
  cells.push(cell.trim());
  return cells;
}

function stripComment(line: string): string {
  return line.replace(/(^|\s)(#|\/\/).*$/, '').trim();
}

export function parseDomainList(text: string, path: string): ParseResult {
  const lines = text.split(/\r?\n/);
  const dependencies: Dependency[] = [];
  const errors: ParseResult['errors'] = [];
  const seen = new Set<string>();

  const contentLines = lines.map(stripComment);
  const firstIndex = contentLines.findIndex((line) => line !== '');
  const isCsv = firstIndex >= 0 && (contentLines[firstIndex] ?? '').includes(',');
  let column = 0;
  let startIndex = 0;
  if (isCsv) {
    const header = splitCsv(contentLines[firstIndex] ?? '');
    const named = header.findIndex((cell) => HOST_COLUMNS.test(cell));
    if (named >= 0) {
      column = named;
      startIndex = firstIndex + 1;
    }
  }

  for (let index = startIndex; index < lines.length; index++) {
    const content = contentLines[index] ?? '';
    if (content === '') continue;
    const lineNumber = index + 1;
    const raw = isCsv ? (splitCsv(content)[column] ?? '') : (content.split(/\s+/)[0] ?? '');
    const result = normalizeHost(raw);
    if (!result.ok) {
      errors.push({ file: path, line: lineNumber, message: `${result.reason}; skipped` });
      continue;
    }
    if (seen.has(result.entry.host)) continue;
    seen.add(result.entry.host);
    dependencies.push({
      ecosystem: 'domain',
      name: result.entry.host,
      file: path,
      line: lineNumber,
      direct: true,
      via: [result.entry.host],
    });
  }
  return { dependencies, errors };
}

const HOSTISH = /^(\*\.)?([a-z][a-z0-9+.-]*:\/\/)?[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)+(:\d+)?(\/\S*)?$/iu;

export const domainListParser: Parser = {
  kind: 'domains',
  matches: (path) =>
    /^(domains?|hosts?|hostnames?|endpoints?|urls?|allowlist|egress)([._-][\w.-]*)?\.(txt|csv|list)$|\.domains$/i.test(
      basename(path),
    ),
  sniff(text) {
    const lines = text
      .split(/\r?\n/)
      .map(stripComment)
      .filter((line) => line !== '')
      .slice(0, 50);
    if (lines.length === 0) return false;
    const first = lines[0] ?? '';
    const csvHeader = first.includes(',') && splitCsv(first).some((cell) => HOST_COLUMNS.test(cell));
    const hostLike = lines.filter((line) => HOSTISH.test(line.split(/[\s,]+/)[0] ?? '')).length;
    return csvHeader || hostLike / lines.length >= 0.6;
  },
  parse: parseDomainList,
};
