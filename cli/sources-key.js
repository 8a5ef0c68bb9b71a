// The key of the compiler's sources: the hash of cli/, templates/, package.json and the lockfile.
// Plain JavaScript, because cli/bin.js needs it before any TypeScript can run; the compiler's caches
// (cli/cache/policy.ts) and its installed artifacts (the CLI bundle, the client bundle) all take
// their key from here, so a change anywhere in the compiler, or an upgrade, is a new key for all.
// What every run of cli/bin.js does (`sourceFiles`, `statsKey`) is kept small: no node:crypto
// (loading it costs more than the stats: it is loaded only to hash contents), paths joined by
// hand, and the stats compared as they are, not hashed.

// Node's modules as objects, not imported: see cli/bin.js.
const { existsSync, readdirSync, readFileSync, statSync } = process.getBuiltinModule('node:fs');
const { join, sep } = process.getBuiltinModule('node:path');

/** A file changed less than this long ago may change again within the same time stamp. */
const RACY_MS = 3000;

/**
 * Files a build writes among the sources for a moment and removes: Vike's `+config.ts.build-<id>.mjs`
 * (the +files transpiled to be imported, beside them in templates/vike/), Vite's config
 * `.timestamp-<n>-<hash>.mjs`. Not sources: a run beside a build must neither hash one (a new key, a
 * new bundle, every cache missed) nor fail on one gone before it was read (that was the internal error,
 * exit 70, of a `content validate` running while a build ran: tests/cli/sources-key.test.ts).
 */
const TRANSIENT = /\.(?:build-[a-z0-9]{12}|timestamp-\d+-[0-9a-f]+)\.mjs$/;

/** `error` says the file is not there (any more). */
const gone = (error) => error?.code === 'ENOENT';

/**
 * The files the key covers, relative to `root`, sorted (so the key does not depend on the file
 * system's order), without a build's transient files. The lockfile names every installed version; the first one found is taken.
 * @param {string} root
 * @returns {string[]}
 */
export function sourceFiles(root) {
  const files = [];
  for (const folder of ['cli', 'templates'])
    for (const e of readdirSync(join(root, folder), { recursive: true, withFileTypes: true }))
      if (e.isFile() && !TRANSIENT.test(e.name))
        files.push(
          `${e.parentPath}${sep}${e.name}`
            .slice(root.length + 1)
            .split('\\')
            .join('/'),
        );
  const lock = ['package-lock.json', 'node_modules/.package-lock.json'].find((f) => existsSync(join(root, f)));
  return [...files.sort(), 'package.json', ...(lock ? [lock] : [])];
}

/**
 * What the files are, by their metadata (a line each); undefined while one of them may still be
 * being written (a time that fine may not tell two writes apart, as git knows for its index), or
 * is gone since it was listed.
 * @param {string} root
 * @param {string[]} files
 * @returns {string | undefined}
 */
export function statsKey(root, files) {
  let key = '';
  const settled = Date.now() - RACY_MS;
  for (const file of files) {
    let s;
    try {
      s = statSync(`${root}${sep}${file}`);
    } catch (error) {
      if (gone(error)) return undefined;
      throw error;
    }
    if (s.mtimeMs > settled || s.ctimeMs > settled) return undefined;
    key += `${file}\0${s.size}\0${s.mtimeMs}\0${s.ctimeMs}\0${s.ino}\n`;
  }
  return key;
}

/**
 * What the files are, by their contents: the sources key. A file gone since it was listed is left
 * out, as a listing made now would leave it out.
 * @param {string} root
 * @param {string[]} [files]
 * @returns {string}
 */
export function contentKey(root, files = sourceFiles(root)) {
  const { createHash } = process.getBuiltinModule('node:crypto');
  const hash = createHash('sha256');
  for (const file of files) {
    let bytes;
    try {
      bytes = readFileSync(join(root, file));
    } catch (error) {
      if (gone(error)) continue;
      throw error;
    }
    hash.update(`${file}\0`).update(bytes).update('\0');
  }
  return hash.digest('hex');
}

/**
 * The folder of the compiler's installed artifacts built from sources `key` (the CLI bundle, the
 * client bundle): one folder per version, so a run never sees a bundle half written by another.
 * @param {string} root
 * @param {string} key
 * @returns {string}
 */
export const artifactsDir = (root, key) => join(root, 'node_modules', '.studio-site-cli', key.slice(0, 16));
