import { randomBytes } from 'node:crypto';
import { chownSync, closeSync, constants, fchownSync, fsyncSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { type FileOps, nodeFileOps, writeAll } from './file-ops.ts';

/** Makes a directory's entries (a file created, renamed or removed in it) durable. */
export function syncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * A file root creates in the inbox (`content enquiries erase` run with sudo while no server runs)
 * gets the owner of what it replaces, else of the folder: the server, running as its own user,
 * must still be able to write it.
 */
export function keepOwner(target: number | string, like: string): void {
  if (process.getuid?.() !== 0) return;
  const owner = statSync(like, { throwIfNoEntry: false });
  if (!owner || (owner.uid === 0 && owner.gid === 0)) return;
  if (typeof target === 'number') fchownSync(target, owner.uid, owner.gid);
  else chownSync(target, owner.uid, owner.gid);
}

/**
 * Replaces `path` with `bytes` as every write of the inbox is made: a new file beside it
 * (mode 0600), written whole, synced, renamed over the old one, and the directory synced. A
 * reader sees the old file or the new one, never a mixture; a failure (a full disk) leaves the
 * old file as it was and removes the new one.
 */
export async function replaceFile(path: string, bytes: Uint8Array, ops: FileOps = nodeFileOps): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = await ops.open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  try {
    try {
      keepOwner(fd, statSync(path, { throwIfNoEntry: false }) ? path : dirname(path));
      await writeAll(ops, fd, bytes, 0);
      await ops.sync(fd);
    } finally {
      await ops.close(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  syncDir(dirname(path));
}

/**
 * Writes a file that must not exist yet (a backup): created with mode 0600 whatever the umask,
 * never replacing anything, synced; a file cut short (a full disk) is ours and is removed.
 */
export function createNewFile(path: string, bytes: Uint8Array): void {
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    let done = 0;
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(path, { force: true });
    throw error;
  }
  closeSync(fd);
  syncDir(dirname(path));
}
