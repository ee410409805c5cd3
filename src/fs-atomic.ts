// Atomic file replacement: a reader (or a crash) only ever sees the old file or the new one, never half of one.
import { open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export async function writeFileAtomic(path: string, content: string): Promise<void> {
  // node:crypto is loaded by the runs that write (3 ms of start-up for every check that does not).
  const { randomBytes } = await import('node:crypto');
  const temp = join(dirname(path), `.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', 0o644);
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  // Persist the rename itself; not every platform lets a directory be opened, which is fine to skip.
  try {
    const dir = await open(dirname(path), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  } catch {
    /* directory fsync is best-effort */
  }
}
