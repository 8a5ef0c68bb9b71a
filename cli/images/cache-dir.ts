import { existsSync, mkdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { tempFileFor } from '../util/atomic-write.ts';

/**
 * A content-addressed folder of files: a name is the hash of everything the file is made from, so
 * an entry is never stale, only unused (pruned by the cache policy's age and count). A cache that
 * cannot be written (a full disk, a read-only node_modules) only makes the next build slower.
 */
export class FileCache {
  constructor(
    readonly dir: string,
    /** False: `has` finds nothing (caches off), so everything is made anew and stored. */
    readonly readable = true,
  ) {}

  path(name: string): string {
    return join(this.dir, basename(name));
  }

  has(name: string): boolean {
    return this.readable && existsSync(this.path(name));
  }

  /** Stored whole or not at all: written to a temp file of its own, then renamed (of two builds at once, either's bytes are the same). */
  store(name: string, bytes: Uint8Array): void {
    const path = this.path(name);
    const temp = tempFileFor(path);
    try {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(temp, bytes);
      renameSync(temp, path);
    } catch {
      try {
        unlinkSync(temp);
      } catch {}
    }
  }
}
