import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project folder. Found by walking up from this module, because the CLI also runs from
 * a bundle in node_modules/.studio-site-cli (see bin.js), where relative URLs would point elsewhere.
 */
function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'studio-site') return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('studio-site: cannot find the project folder (package.json)');
    dir = up;
  }
}

export const PROJECT_ROOT = findRoot();
export const fromRoot = (...parts: string[]) => join(PROJECT_ROOT, ...parts);
export const CACHE_DIR = fromRoot('node_modules', '.cache', 'studio-site');
