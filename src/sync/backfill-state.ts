// What a backfill keeps between runs, under `<index>/.backfill/<provider>/`, so Ctrl-C or a crash loses nothing:
// `state.json` (where the walk through the history pages stands, the codes still to fetch, the codes that answered
// 404) and journals, one per run, to which every fetched record is appended the moment it is read. A journal is
// merged into the index file at each checkpoint and then removed; one left by a killed run is merged by the next.
import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../fs-atomic.js';
import { IncidentSchema } from '../incidents/schema.js';
import type { Incident } from '../model.js';

const StateSchema = z.object({
  schemaVersion: z.literal(1),
  /** The walk reached the archive's end once: later walks stop at the first page that lists nothing new. */
  walked: z.boolean(),
  /** The next history page to read when the walk was cut short. */
  nextPage: z.number().int().min(1),
  /** Codes listed by the history but not fetched yet. */
  pending: z.array(z.string()),
  /** Codes whose record answered 404: reported, and not asked again. */
  missing: z.array(z.string()),
});

export type BackfillState = z.infer<typeof StateSchema>;

export function freshState(): BackfillState {
  return { schemaVersion: 1, walked: false, nextPage: 1, pending: [], missing: [] };
}

export class BackfillStore {
  readonly dir: string;
  private readonly journal: string;

  constructor(indexDir: string, provider: string) {
    this.dir = join(indexDir, '.backfill', provider);
    this.journal = join(this.dir, `${process.pid}-${randomBytes(4).toString('hex')}.jsonl`);
  }

  async readState(): Promise<BackfillState> {
    const text = await readFile(join(this.dir, 'state.json'), 'utf8').catch(() => undefined);
    if (text === undefined) return freshState();
    try {
      const parsed = StateSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : freshState();
    } catch {
      return freshState();
    }
  }

  async saveState(state: BackfillState): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await writeFileAtomic(join(this.dir, 'state.json'), `${JSON.stringify(state)}\n`);
  }

  /** Appends one fetched record's incidents; a line is either whole or, after a crash mid-write, skipped on reading. */
  async append(code: string, incidents: Incident[]): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await appendFile(this.journal, `${JSON.stringify({ code, incidents })}\n`);
  }

  /** Every journal in the directory (this run's and any a killed run left): the codes and incidents they hold. */
  async readJournals(): Promise<{ files: string[]; codes: Set<string>; incidents: Incident[] }> {
    const names = (await readdir(this.dir).catch(() => [] as string[])).filter((name) => name.endsWith('.jsonl'));
    const codes = new Set<string>();
    const incidents: Incident[] = [];
    for (const name of names) {
      const text = await readFile(join(this.dir, name), 'utf8').catch(() => '');
      for (const line of text.split('\n')) {
        const entry = readLine(line);
        if (!entry) continue;
        codes.add(entry.code);
        incidents.push(...entry.incidents);
      }
    }
    return { files: names.map((name) => join(this.dir, name)), codes, incidents };
  }

  async remove(files: string[]): Promise<void> {
    for (const file of files) await rm(file, { force: true });
  }
}

const LineSchema = z.object({ code: z.string(), incidents: z.array(IncidentSchema) });

function readLine(line: string): { code: string; incidents: Incident[] } | undefined {
  if (line.trim() === '') return undefined;
  try {
    const parsed = LineSchema.safeParse(JSON.parse(line));
    return parsed.success ? (parsed.data as { code: string; incidents: Incident[] }) : undefined;
  } catch {
    return undefined; // the torn last line of a killed run
  }
}
