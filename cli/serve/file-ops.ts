import { close, fdatasync, ftruncate, open, write } from 'node:fs';
import { promisify } from 'node:util';

/**
 * The few file operations the inbox writes with. The seam where tests inject a full disk,
 * short writes, I/O errors and failed syncs; `nodeFileOps` in production.
 */
export interface FileOps {
  open(path: string, flags: number, mode?: number): Promise<number>;
  /** Writes at `position` and returns how many bytes it wrote, which may be fewer than asked. */
  write(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): Promise<number>;
  /** Makes the file's data (and its size) durable. */
  sync(fd: number): Promise<void>;
  truncate(fd: number, length: number): Promise<void>;
  close(fd: number): Promise<void>;
}

const writeAsync = promisify(write);

export const nodeFileOps: FileOps = {
  open: promisify(open) as FileOps['open'],
  write: async (fd, buffer, offset, length, position) => (await writeAsync(fd, buffer, offset, length, position)).bytesWritten,
  sync: promisify(fdatasync),
  truncate: promisify(ftruncate),
  close: promisify(close),
};

/** Writes every byte of `bytes` at `position`, however many calls the file system wants (a short write is not an error). */
export async function writeAll(ops: FileOps, fd: number, bytes: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < bytes.length) {
    const n = await ops.write(fd, bytes, done, bytes.length - done, position + done);
    if (!(n > 0)) throw Object.assign(new Error(`wrote ${n} bytes of ${bytes.length - done}`), { code: 'EIO' });
    done += n;
  }
}
