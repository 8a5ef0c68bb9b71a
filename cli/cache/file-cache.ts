import { accessSync, constants, copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { tempFileFor } from '../util/atomic-write.ts';
import { cacheFolder } from './policy.ts';

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

  /**
   * Puts the entry `name` at `to` (a new file in a site being staged): hard-linked, which costs a
   * tenth of a copy; copied where a link cannot be made (another file system). Entries are read-only
   * (0444), so the site's file cannot be edited in place into a wrong entry.
   */
  placeAt(name: string, to: string): void {
    try {
      linkSync(this.path(name), to);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw error;
      copyFileSync(this.path(name), to);
    }
  }

  /** Stored whole or not at all: written to a temp file of its own, then renamed (of two builds at once, either's bytes are the same). */
  store(name: string, bytes: Uint8Array): void {
    const path = this.path(name);
    const temp = tempFileFor(path);
    try {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(temp, bytes, { mode: 0o444 });
      renameSync(temp, path);
    } catch {
      try {
        unlinkSync(temp);
      } catch {}
    }
  }
}

/** The folders of this process's own used where the compiler's cache cannot be written (see `imageCacheFolder`). */
const ownFolders = new Map<string, string>();

/**
 * The cache folder `name` (images, cards), or, where the compiler's cache cannot be written (a
 * service user running an installation it may not change, a read-only node_modules), a folder of
 * this process's own in the system's temp folder: the stage makes its files there and places them
 * into the site from it, as from the cache. `releaseImageCaches` removes those folders.
 */
export function imageCacheFolder(name: 'images' | 'cards' | 'decoded'): string {
  try {
    const dir = cacheFolder(name);
    accessSync(dir, constants.W_OK);
    return dir;
  } catch {
    let own = ownFolders.get(name);
    if (!own) {
      own = mkdtempSync(join(tmpdir(), `studio-site-${name}-`));
      ownFolders.set(name, own);
    }
    return own;
  }
}

/** Removes the folders `imageCacheFolder` made in the system's temp folder (at the end of a build). */
export function releaseImageCaches(): void {
  for (const dir of ownFolders.values()) rmSync(dir, { recursive: true, force: true });
  ownFolders.clear();
}
