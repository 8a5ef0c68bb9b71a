import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { cacheDir, givenSourcesKey, PROJECT_ROOT } from '../paths.ts';
import { contentKey } from '../sources-key.js';
import { writeFileWhole } from '../util/atomic-write.ts';
import { pruneCache } from './prune.ts';

/**
 * The one policy every cache of the compiler follows (the parse memo, the page records):
 * - every key starts from `compilerSalt()`, the hash of the compiler's own code (`cli/`,
 *   `templates/`, package.json) and of the lockfile (the versions of ajv, yaml, esbuild,
 *   React…), so no cache lists by hand what it depends on in the compiler: a change anywhere in
 *   it, or an upgrade, is a new key;
 * - `STUDIO_NO_CACHE=1` (see `cachesOff`): nothing is read from any cache; what a run makes
 *   may still be stored for later runs;
 * - every cache lives in a folder of its own under `cacheDir()` (node_modules/.cache/studio-site,
 *   or STUDIO_CACHE_DIR), opened with `cacheFolder`, and is pruned after each write (`pruneCache`).
 */

/** Whether caches are to be ignored: read at every call, so one process may build both ways. */
export const cachesOff = () => process.env.STUDIO_NO_CACHE === '1';

let salt: string | undefined;

/**
 * The sources key (cli/sources-key.js: every file under cli/ and templates/, package.json and the
 * lockfile): the one cli/bin.js checked the running bundle against (paths.ts, `givenSourcesKey`),
 * else computed once per process.
 */
export function compilerSalt(): string {
  salt ??= givenSourcesKey() ?? contentKey(PROJECT_ROOT);
  return salt;
}

/** A key of cache `name`: the compiler's salt, the cache's name and what the entry is made from. */
export function cacheKey(name: string, ...inputs: (string | Uint8Array)[]): string {
  const hash = createHash('sha256').update(compilerSalt()).update('\0').update(name);
  for (const input of inputs) hash.update('\0').update(input);
  return hash.digest('hex').slice(0, 24);
}

/**
 * The file cache `name` keeps for one folder (a content or an output folder, named by its absolute
 * path), with extension `ext`: `<cacheDir()>/<name>/<hash of the path>.<ext>`.
 */
export const folderCacheFile = (name: string, folder: string, ext: string): string =>
  join(cacheDir(), name, `${createHash('sha1').update(resolve(folder)).digest('hex').slice(0, 16)}.${ext}`);

/** The folder of cache `name` (created). */
export function cacheFolder(name: string): string {
  const dir = join(cacheDir(), name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Undefined when this process may write the cache folder; else the one line that says it cannot
 * (a build tells it once: the service user of a nightly rebuild whose node_modules belongs to root
 * would otherwise build everything anew every night without a word). Found by writing a file.
 */
export function cacheUnwritable(): string | undefined {
  const dir = cacheDir();
  const probe = join(dir, `.write-test-${process.pid}`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return `the build cache ${dir} cannot be written (${code}): every picture and share card is made anew and kept for no later build. Set STUDIO_CACHE_DIR to a folder this user may write (docs/deploy.md).`;
  }
}

/**
 * Stores one file of a cache whole or not at all, then prunes its folder to the `keep` newest
 * entries: the bytes go to a temp file of their own, renamed over `file` (writeFileWhole; of
 * two runs at once, the last one's stays). When that fails (a full disk, a read-only
 * node_modules) the temp file is removed and false returned: a cache that cannot be written only
 * makes the next run slower, and a half-written one must not take the room a full disk lacks.
 */
export function storeCacheFile(file: string, bytes: string | Uint8Array, keep: number): boolean {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileWhole(file, bytes, { mode: 0o666 });
  } catch {
    return false;
  }
  pruneCache(dirname(file), keep, basename(file));
  return true;
}

export { pruneCache };
