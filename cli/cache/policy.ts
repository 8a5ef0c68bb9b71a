import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE_DIR, fromRoot } from '../paths.ts';
import { pruneCache } from './prune.ts';

/**
 * The one policy every cache of the compiler follows (validators, parse results, client
 * bundle, page records):
 * - every key starts from `compilerSalt()`, the hash of the compiler's own code (`cli/`,
 *   `templates/`) and of the lockfile (the versions of ajv, yaml, js-yaml, esbuild, React…), so
 *   no cache lists by hand what it depends on in the compiler: a change anywhere in it, or an
 *   upgrade, is a new key;
 * - `STUDIO_NO_CACHE=1` (see `cachesOff`): nothing is read from any cache; what a run makes
 *   may still be stored for later runs;
 * - every cache lives in a folder of its own under node_modules/.cache/studio-site, opened with
 *   `cacheFolder`, and is pruned after each write (`pruneCache`).
 */

/** Whether caches are to be ignored: read at every call, so one process may build both ways. */
export const cachesOff = () => process.env.STUDIO_NO_CACHE === '1';

/** The lockfiles whose contents name every installed version; the first found is hashed. */
const LOCKFILES = ['package-lock.json', 'node_modules/.package-lock.json'];

let salt: string | undefined;

/**
 * The hash of every file under cli/ and templates/ and of the lockfile: computed once per process,
 * or taken from cli/bin.js, which hashes the same files (and package.json) to know its bundle current.
 */
export function compilerSalt(): string {
  salt ??= (globalThis as Record<symbol, string | undefined>)[Symbol.for('studio-site.sources-key')];
  if (salt) return salt;
  const hash = createHash('sha256');
  for (const folder of ['cli', 'templates'])
    for (const file of sourceFiles(fromRoot(folder)))
      hash
        .update(`${folder}/${file}\0`)
        .update(readFileSync(fromRoot(folder, file)))
        .update('\0');
  const lock = LOCKFILES.find((f) => existsSync(fromRoot(f)));
  hash.update(lock ? readFileSync(fromRoot(lock)) : `no lockfile; node ${process.version}`);
  salt = hash.digest('hex');
  return salt;
}

/** Files under `dir`, relative, sorted (so the salt does not depend on the file system's order). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) =>
      join(e.parentPath, e.name)
        .slice(dir.length + 1)
        .split('\\')
        .join('/'),
    )
    .sort();
}

/** A key of cache `name`: the compiler's salt, the cache's name and what the entry is made from. */
export function cacheKey(name: string, ...inputs: (string | Uint8Array)[]): string {
  const hash = createHash('sha256').update(compilerSalt()).update('\0').update(name);
  for (const input of inputs) hash.update('\0').update(input);
  return hash.digest('hex').slice(0, 24);
}

/** The folder of cache `name` (created). */
export function cacheFolder(name: string): string {
  const dir = join(CACHE_DIR, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

export { pruneCache };
