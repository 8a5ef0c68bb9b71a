import { chmodSync, mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'vitest';

/**
 * Each test file's temporary folder: `tests/built-site.ts` gives the run one (TMPDIR), and every
 * test file a folder in it named after the file, so that what a file leaves behind (a folder it did
 * not remove, a Chromium profile, a server's inbox) is named with the file when the run ends.
 */
const root = process.env.STUDIO_TEST_TMP;
const file = expect.getState().testPath;
if (root && file) {
  const dir = join(root, relative(join(import.meta.dirname, '..'), file).replaceAll('/', '__'));
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o1777); // as /tmp is: PostgreSQL and the service user make their folders here too
  process.env.TMPDIR = dir;
}
