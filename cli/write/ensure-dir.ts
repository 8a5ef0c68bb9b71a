import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/** Creates the folder of `path` once per folder (`made` remembers those already there). */
export function ensureDir(made: Set<string>, path: string): void {
  const dir = dirname(path);
  if (!made.has(dir)) {
    mkdirSync(dir, { recursive: true });
    made.add(dir);
  }
}
