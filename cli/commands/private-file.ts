import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../report/problem.ts';
import { MANIFEST_FILE } from '../serve/manifest.ts';
import { writeFileWhole } from '../util/atomic-write.ts';
import { MARK_FILE } from '../write/site-mark.ts';

/**
 * The served folder a file would land in: a folder (or one above it) that holds a site mark or
 * the server's manifest, or one of `sites` (the `--out` of the command). Symlinks are resolved,
 * so a link into the site does not hide it.
 */
export function servedFolderOf(file: string, sites: string[]): string | undefined {
  let dir: string;
  try {
    dir = realpathSync(dirname(resolve(file)));
  } catch {
    return undefined; // no such folder: opening the file says so
  }
  const served = sites.flatMap((s) => {
    try {
      return [realpathSync(s)];
    } catch {
      return [];
    }
  });
  for (let d = dir; ; d = dirname(d)) {
    if (served.includes(d) || existsSync(join(d, MARK_FILE)) || existsSync(join(d, MANIFEST_FILE))) return d;
    if (dirname(d) === d) return undefined;
  }
}

/**
 * Writes what holds personal data (an export, a backup) as a new file only its owner can read
 * (0600): never over an existing file or symlink (a spreadsheet or an earlier export someone
 * keeps), never inside a folder that is served. A file cut short (disk full) is ours, and is removed.
 */
export function writePrivateFile(path: string, data: string | Buffer, options: { flag: string; sites: string[] }): void {
  const served = servedFolderOf(path, options.sites);
  if (served)
    throw new UsageError(
      `${options.flag} ${path} lies in ${served}, a folder that is served on the web: the enquiries would be public`,
      'write it outside the site, e.g. into your home folder',
    );
  try {
    writeFileWhole(path, data, { mode: 0o600, exclusive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST')
      throw new UsageError(`${options.flag} ${path} already exists; the export never replaces a file`, 'give a new file name, or move the old file away first');
    if (code === 'ENOENT') throw new UsageError(`${options.flag} ${path}: there is no folder ${dirname(resolve(path))}`, 'create it first');
    throw error;
  }
}
