import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { cacheFolder, cachesOff, pruneCache } from '../core/cache-policy.ts';
import { CACHE_DIR } from '../paths.ts';
import type { PreviousPage, Rendered } from './render-pages.ts';

const recordsFile = (dir: string, outDir: string) => join(dir, `${createHash('sha1').update(resolve(outDir)).digest('hex').slice(0, 16)}.json`);

/**
 * What the last build into `outDir` wrote for each page (the key of its model, the templates
 * and the tags inserted into it, and the file's identity), so the next build can take over the
 * pages whose key did not change. Nothing when there is no previous site, or `STUDIO_NO_CACHE=1`.
 */
export function readPageRecords(outDir: string): Record<string, PreviousPage> | undefined {
  if (cachesOff() || !existsSync(outDir)) return undefined;
  try {
    return (JSON.parse(readFileSync(recordsFile(join(CACHE_DIR, 'pages'), outDir), 'utf8')) as { pages: Record<string, PreviousPage> }).pages;
  } catch {
    return undefined;
  }
}

export function writePageRecords(outDir: string, rendered: Rendered[]): void {
  const pages = Object.fromEntries(rendered.map(({ file, rendered: _, ...record }) => [file, record]));
  try {
    const dir = cacheFolder('pages');
    const file = recordsFile(dir, outDir);
    writeFileSync(`${file}.tmp`, JSON.stringify({ outDir: resolve(outDir), pages }));
    renameSync(`${file}.tmp`, file);
    pruneCache(dir, 20, basename(file)); // the 20 output folders built last
  } catch {
    // Without records the next build renders every page again: slower, never wrong.
  }
}
