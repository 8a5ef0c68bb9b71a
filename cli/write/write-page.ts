import { linkSync, lstatSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileIdentity } from '../util/file-identity.ts';
import { ensureDir } from './ensure-dir.ts';

/**
 * Writes a page's HTML to `file` in `dir` (a new staging folder: nothing is there to overwrite),
 * creating its folder once (`made`), and returns the file's identity.
 */
export function writePage(dir: string, file: string, html: string, made: Set<string>): FileIdentity {
  const path = join(dir, file);
  ensureDir(made, path);
  writeFileSync(path, html);
  const st = statSync(path);
  return { file, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
}

/**
 * Hard-links into `to` each file of `from` that is still exactly the one a build wrote there (same
 * inode, size and time: not edited by hand since). Returns the files linked; the others are to be
 * written anew. A link is never written through: a page either is linked or is written.
 */
export function linkUnchanged(from: string, to: string, files: FileIdentity[]): Set<string> {
  const linked = new Set<string>();
  const made = new Set<string>();
  for (const { file, ino, size, mtimeMs } of files) {
    const source = join(from, file);
    const target = join(to, file);
    try {
      const st = lstatSync(source); // a link put in its place is not the file
      if (!st.isFile() || st.ino !== ino || st.size !== size || st.mtimeMs !== mtimeMs) continue;
      ensureDir(made, target);
      linkSync(source, target);
      linked.add(file);
    } catch {
      // gone, or a file system without hard links: written anew
    }
  }
  return linked;
}
