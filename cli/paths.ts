import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The project folder. Found by walking up from this module, because the CLI also runs from
 * a bundle in node_modules/.studio-site-cli (see bin.js), where relative URLs would point elsewhere.
 */
function findRoot(): string {
  let dir = import.meta.dirname;
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'studio-site') return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('studio-site: cannot find the project folder (package.json)');
    dir = up;
  }
}

export const PROJECT_ROOT = findRoot();

let sourcesKey: string | undefined;
/** The sources key (cli/sources-key.js) of the bundle this process runs, as cli/bin.js found it before loading it; undefined through tsx. */
export const givenSourcesKey = () => sourcesKey;
/** Called by cli/bin.js: the key it checked the bundle against, so the caches' salt (cli/incremental/policy.ts) is not hashed again. */
export function takeSourcesKey(key: string): void {
  sourcesKey = key;
}
export const fromRoot = (...parts: string[]) => join(PROJECT_ROOT, ...parts);
export const CACHE_DIR = fromRoot('node_modules', '.cache', 'studio-site');
