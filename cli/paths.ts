import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

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
/** Called by cli/bin.js: the key it checked the bundle against, so the caches' salt (cli/cache/policy.ts) is not hashed again. */
export function takeSourcesKey(key: string): void {
  sourcesKey = key;
}
/**
 * The entry of one of the CLI's worker threads, given the URL of the module that starts it (its
 * `import.meta.url`): in the bundle, `<name>.cjs` beside it (cli/bin.js builds one per worker); run
 * from the TypeScript sources, `<name>-tsx.cjs` beside it, which registers tsx's hooks first
 * (cli/render-worker-tsx.cjs for cli/build-worker.ts, cli/images/card-worker-tsx.cjs).
 */
export function workerEntry(name: 'render-worker' | 'card-worker', from: string): { url: URL; execArgv: string[] } {
  return { url: new URL(from.endsWith('.ts') ? `./${name}-tsx.cjs` : `./${name}.cjs`, from), execArgv: [] };
}
export const fromRoot = (...parts: string[]) => join(PROJECT_ROOT, ...parts);
/**
 * The folder of the compiler's caches (the parse memo, page records, pictures, share cards): the
 * folder `STUDIO_CACHE_DIR` names (a CI cache kept outside node_modules, a service's own
 * /var/cache/studio-site), else node_modules/.cache/studio-site. Read at every call.
 */
export const cacheDir = (): string => {
  const given = process.env.STUDIO_CACHE_DIR;
  return given ? resolve(given) : fromRoot('node_modules', '.cache', 'studio-site');
};
