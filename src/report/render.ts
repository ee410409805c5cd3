// `check --format X`: one renderer per format, each in its own file, loaded when that format is asked for (the
// table alone brings chalk, HTML its own template and styles).
import type { CheckReport } from '../check.js';
import type { CheckFormat } from './formats.js';
import { jsonDocument, type SafeText } from '../sanitize.js';
import type { RenderOptions } from './shared.js';

/** Formats that need our own escapes (colour, workflow commands, JSON) return SafeText; the rest plain text. */
export async function renderCheck(
  report: CheckReport,
  format: CheckFormat,
  options: RenderOptions,
): Promise<SafeText | string> {
  switch (format) {
    case 'json':
      return jsonDocument((await import('./json.js')).checkToJson(report));
    case 'markdown':
      return (await import('./markdown.js')).renderMarkdown(report, options);
    case 'sarif':
      return (await import('./sarif.js')).renderSarif(report, options);
    case 'github':
      return (await import('./github.js')).renderGithub(report, options);
    case 'gitlab':
      return (await import('./gitlab.js')).renderGitlab(report, options);
    case 'html':
      return (await import('./html.js')).renderHtml(report, options);
    case 'table':
      return (await import('./table.js')).renderTable(report, {
        ...(options.color ? { painter: new (await import('chalk')).Chalk({ level: 1 }) } : {}),
        now: options.now,
        limit: options.limit ?? 0,
      });
  }
}
