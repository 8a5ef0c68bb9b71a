import { chownSync, fchownSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileWhole, writeFileWholeWith } from '../util/atomic-write.ts';
import { type FileOps, nodeFileOps } from './file-ops.ts';

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
 * (mode 0600, owned as the old one), written whole, synced, renamed over the old one, and the
 * directory synced. A reader sees the old file or the new one, never a mixture; a failure (a full
 * disk) leaves the old file as it was and removes the new one.
 */
export async function replaceFile(path: string, bytes: Uint8Array, ops: FileOps = nodeFileOps): Promise<void> {
  const like = statSync(path, { throwIfNoEntry: false }) ? path : dirname(path);
  await writeFileWholeWith(ops, path, bytes, { mode: 0o600, sync: true, prepare: (fd) => keepOwner(fd, like) });
}

/**
 * Writes a file that must not exist yet (a backup): created with mode 0600 whatever the umask,
 * never replacing anything, synced; a file cut short (a full disk) is ours and is removed.
 */
export function createNewFile(path: string, bytes: Uint8Array): void {
  writeFileWhole(path, bytes, { mode: 0o600, sync: true, exclusive: true });
}
