// `check --format X`: one renderer per format, each in its own file.
import type { CheckReport } from '../check.js';
import type { CheckFormat } from './formats.js';
import { renderGithub } from './github.js';
import { renderGitlab } from './gitlab.js';
import { renderHtml } from './html.js';
import { checkToJson } from './json.js';
import { renderMarkdown } from './markdown.js';
import { renderSarif } from './sarif.js';
import { jsonDocument, type SafeText } from '../sanitize.js';
import type { RenderOptions } from './shared.js';
import { renderTable } from './table.js';

/** Formats that need our own escapes (colour, workflow commands, JSON) return SafeText; the rest plain text. */
export function renderCheck(report: CheckReport, format: CheckFormat, options: RenderOptions): SafeText | string {
  switch (format) {
    case 'json':
      return jsonDocument(checkToJson(report));
    case 'markdown':
      return renderMarkdown(report, options);
    case 'sarif':
      return renderSarif(report, options);
    case 'github':
      return renderGithub(report, options);
    case 'gitlab':
      return renderGitlab(report, options);
    case 'html':
      return renderHtml(report, options);
    case 'table':
      return renderTable(report, { color: options.color ?? false, now: options.now, limit: options.limit ?? 0 });
  }
}
