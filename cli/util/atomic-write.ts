import { randomBytes } from 'node:crypto';
import { closeSync, constants, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * "Whole or not at all" for one file, the one place it is written: a reader sees the old file or
 * the new one, never a mixture, and a failure (a full disk, a read-only folder) leaves the old file
 * as it was and no temp file behind; the error is thrown.
 */
export interface WholeFileOptions {
  /** Permissions of the file made (the umask still applies): 0644 unless given; 0600 for personal data. */
  mode?: number;
  /** Flush the file, and after the rename its folder, to the disk: the new file survives a crash or a power cut. */
  sync?: boolean;
  /**
   * Never replace anything: the file must not exist yet (nor a symlink there; the error's code is
   * EEXIST). It is written in place, and removed again when the write fails.
   */
  exclusive?: boolean;
  /** Called with the new file's descriptor before anything is written (e.g. to give it an owner). */
  prepare?: (fd: number) => void;
}

/**
 * The temp file a write of `path` goes through: in the same folder (a rename never crosses file
 * systems), hidden, and random, so that two processes, threads or pending writes never share one.
 * `.NAME.<12 hex>.tmp`: what a process killed meanwhile leaves, for its owner to sweep.
 */
export function tempFileFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
}

/** Whether `name` is a temp file a write of a file named `of` left behind. */
export function isTempFileOf(name: string, of: string): boolean {
  return name.startsWith(`.${of}.`) && /^[0-9a-f]{12}\.tmp$/.test(name.slice(of.length + 2));
}

const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** Writes `data` to `path` whole or not at all (see `WholeFileOptions`). */
export function writeFileWhole(path: string, data: string | Uint8Array, options: WholeFileOptions = {}): void {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const file = options.exclusive ? path : tempFileFor(path);
  const fd = openSync(file, CREATE, options.mode ?? 0o644);
  try {
    try {
      options.prepare?.(fd);
      let done = 0;
      while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
      if (options.sync) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (file !== path) renameSync(file, path);
  } catch (error) {
    rmSync(file, { force: true });
    throw error;
  }
  if (options.sync) syncFolder(dirname(path));
}

/**
 * Makes a folder's entries (a file created, renamed or removed in it) durable. A file system that
 * cannot flush a folder says so (EINVAL, ENOTSUP): there the rename is done all the same.
 */
export function syncFolder(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'ENOTSUP') throw error;
  } finally {
    closeSync(fd);
  }
}
