import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const WEEK_MS = 7 * 24 * 3600 * 1000;

/**
 * Keeps a cache folder small: its `keep` newest entries (files or folders), none older than a
 * week, always keeping `except` (the entry just written or read). Part of the cache policy
 * (policy.ts): every cache calls it after writing.
 */
export function pruneCache(dir: string, keep = 20, except?: string): void {
  const weekAgo = Date.now() - WEEK_MS;
  let entries: { name: string; mtime: number }[];
  try {
    entries = readdirSync(dir)
      .filter((name) => name !== except)
      .map((name) => ({ name, mtime: statSync(join(dir, name)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime);
  } catch {
    return; // no cache folder, or one changed meanwhile by another run: the next write prunes it
  }
  const room = except === undefined ? keep : keep - 1;
  entries.forEach((e, i) => {
    if (i >= room || e.mtime < weekAgo) rmSync(join(dir, e.name), { recursive: true, force: true });
  });
}
