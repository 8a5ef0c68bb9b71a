import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'vitest';

/** The file in a test file's temporary folder that names the test file (tests/built-site.ts reads it). */
const NAMED_BY = '.test-file';

/**
 * Each test file's temporary folder: `tests/built-site.ts` gives the run one (TMPDIR), and every
 * test file a folder in it, so that what a file leaves behind (a folder it did not remove, a
 * Chromium profile, a server's inbox) is named with the file when the run ends. The folder's
 * name is short (Chromium's socket in TMPDIR must fit a Unix socket path's 107 bytes); the file
 * in it says which test file it is.
 */
const root = process.env.STUDIO_TEST_TMP;
const file = expect.getState().testPath;
if (root && file) {
  const name = relative(join(import.meta.dirname, '..'), file);
  const dir = join(root, createHash('sha1').update(name).digest('hex').slice(0, 8));
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o1777); // as /tmp is: PostgreSQL and the service user make their folders here too
  writeFileSync(join(dir, NAMED_BY), name);
  // The caches tools keep in the temporary folder stay the machine's, shared by every file and run (tsx's compiled sources).
  const outer = process.env.STUDIO_TEST_TMP_OUTER;
  if (outer && process.getuid) {
    const cache = `tsx-${process.getuid()}`;
    mkdirSync(join(outer, cache), { recursive: true });
    symlinkSync(join(outer, cache), join(dir, cache));
  }
  process.env.TMPDIR = dir;
}
