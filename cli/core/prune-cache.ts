import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const WEEK_MS = 7 * 24 * 3600 * 1000;

/** Keeps a cache folder small: its `keep` newest files, none older than a week. */
export function pruneCache(dir: string, keep = 20): void {
  const weekAgo = Date.now() - WEEK_MS;
  const files = readdirSync(dir)
    .map((name) => ({ path: join(dir, name), mtime: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  files.forEach((f, i) => {
    if (i >= keep || f.mtime < weekAgo) rmSync(f.path, { force: true });
  });
}
