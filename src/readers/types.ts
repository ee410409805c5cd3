// The reader contract (README.md in this folder): one published format's text in, drafted incidents out. Readers are
// pure — sync and import own every request, file read and write — so each one is tested on a string.
import type { DraftIncident } from './draft.js';

export interface ReaderContext {
  /** Where the text came from: a file path (import) or a URL (sync). Problems name it; relative links resolve on it. */
  source: string;
  /** The status page's own URL when known (sync), for incidents that carry no link of their own. */
  pageUrl?: string;
  /** Component id → name from the catalog (and from components.json when sync fetched it in the same run). */
  componentNames: ReadonlyMap<string, string>;
  /** The catalog's region ids for the provider, when it lists them. */
  regions?: ReadonlySet<string>;
  /** The text already parsed as JSON by a caller that had to look inside to choose the reader. */
  json?: unknown;
}

/** One entry of a document that could not be read; the other entries still count. */
export interface EntryProblem {
  line?: number;
  /** The entry's title or id, as the document writes it. */
  entry?: string;
  message: string;
}

export interface ReaderResult {
  drafts: DraftIncident[];
  problems: EntryProblem[];
  /** Component id → display name, from payloads that list the page's components. */
  components?: Map<string, string>;
  /**
   * True when the payload lists every incident that is open right now (and nothing else is open), so an incident it
   * no longer lists has ended — Azure and AWS drop resolved items instead of closing them.
   */
  listsAllOpen?: boolean;
}

export type Reader = (text: string, context: ReaderContext) => ReaderResult;

/** What a reader throws when a whole document is not its format; defined with the other errors in errors.ts. */
export { ReaderError } from '../errors.js';

/** `file:line: entry "…": what is wrong`, the form every entry problem is reported in. */
export function describeProblem(source: string, problem: EntryProblem): string {
  const where = `${source}${problem.line ? `:${problem.line}` : ''}`;
  return `${where}: ${problem.entry !== undefined ? `entry "${problem.entry}": ` : ''}${problem.message}`;
}
