import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { join, sep } from 'node:path';

/** The folder of the content that holds the pictures. */
export const IMAGES_DIR = 'images';

export type Opened = { ok: true; size: number; bytes: Buffer } | { ok: false; why: 'missing' | 'notFile' };

/**
 * Reads a picture of `content/images/` (all of it, or its first `limit` bytes): only a regular
 * file that really is inside the content folder (no link out of it, no folder, no device).
 * `file` was checked against the schema's pattern (no "..", no absolute path).
 */
export function readImageFile(contentDir: string, file: string, limit = Number.POSITIVE_INFINITY): Opened {
  const path = join(contentDir, IMAGES_DIR, file);
  let real: string;
  try {
    if (!lstatSync(path).isFile()) return { ok: false, why: 'notFile' };
    real = realpathSync(path);
  } catch {
    return { ok: false, why: 'missing' };
  }
  const root = realpathSync(contentDir);
  if (!real.startsWith(root + sep)) return { ok: false, why: 'notFile' };
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO swapped in since the lstat above does not hang the read; fstat then refuses it.
    fd = openSync(real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch {
    return { ok: false, why: 'missing' };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { ok: false, why: 'notFile' };
    const size = st.size;
    const bytes = Buffer.alloc(Math.min(size, limit));
    let n = 0;
    while (n < bytes.length) {
      const got = readSync(fd, bytes, n, bytes.length - n, n);
      if (got === 0) break;
      n += got;
    }
    return { ok: true, size, bytes: bytes.subarray(0, n) };
  } finally {
    closeSync(fd);
  }
}

/** `readImageFile` for one content folder: what the validate stage is given to read a picture's first bytes with. */
export const pictureReader =
  (contentDir: string) =>
  (file: string, limit: number): Opened =>
    readImageFile(contentDir, file, limit);
