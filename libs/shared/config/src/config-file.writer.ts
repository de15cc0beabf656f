import { randomBytes } from 'node:crypto';
import { mkdir, open, realpath, rename, stat, unlink } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

async function targetOf(path: string): Promise<string> {
  // Write through a symlinked config (dotfile managers) instead of replacing the link with a file.
  try {
    return await realpath(path);
  } catch {
    return resolve(path);
  }
}

async function existingMode(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mode & 0o777;
  } catch {
    return undefined;
  }
}

async function fsyncDir(dir: string): Promise<void> {
  // Makes the rename itself durable. Not every platform/filesystem allows opening a directory, and
  // the data is already safe in the renamed file, so a failure here is not worth failing the write.
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    /* best effort */
  }
}

/**
 * Replaces the file at `path` with `doc` as pretty JSON. The bytes go to a temp file in the same
 * folder (rename is only atomic within one filesystem), are fsynced, then renamed over the target:
 * a reader or a crash sees either the old file or the new one, never a half-written one.
 */
export async function writeConfigAtomic(path: string, doc: Record<string, unknown>): Promise<void> {
  const target = await targetOf(path);
  const dir = dirname(target);
  await mkdir(dir, { recursive: true });
  const text = `${JSON.stringify(doc, null, 2)}\n`;
  const mode = (await existingMode(target)) ?? 0o644;
  const tmp = `${target}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;

  try {
    // 'wx': never write into someone else's temp file, even on a random-name collision.
    const handle = await open(tmp, 'wx', mode);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, target);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await fsyncDir(dir);
}
