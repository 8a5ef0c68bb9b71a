import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pruneCache } from '../core/prune-cache.ts';
import { CACHE_DIR } from '../paths.ts';
import type { PreviousPage, Rendered } from './render-pages.ts';

const recordsFile = (outDir: string) => join(CACHE_DIR, 'pages', `${createHash('sha1').update(resolve(outDir)).digest('hex').slice(0, 16)}.json`);

/**
 * What the last build into `outDir` wrote for each page (the key of its inputs, and the file's
 * identity), so the next build can take over the pages whose inputs did not change.
 * Nothing when there is no previous site, or `STUDIO_NO_CACHE=1`.
 */
export function readPageRecords(outDir: string): Record<string, PreviousPage> | undefined {
  if (process.env.STUDIO_NO_CACHE === '1' || !existsSync(outDir)) return undefined;
  try {
    return (JSON.parse(readFileSync(recordsFile(outDir), 'utf8')) as { pages: Record<string, PreviousPage> }).pages;
  } catch {
    return undefined;
  }
}

export function writePageRecords(outDir: string, rendered: Rendered[]): void {
  const pages = Object.fromEntries(rendered.map(({ file, rendered: _, ...record }) => [file, record]));
  try {
    mkdirSync(join(CACHE_DIR, 'pages'), { recursive: true });
    const file = recordsFile(outDir);
    writeFileSync(`${file}.tmp`, JSON.stringify({ outDir: resolve(outDir), pages }));
    renameSync(`${file}.tmp`, file);
    pruneCache(join(CACHE_DIR, 'pages')); // the 20 output folders built last
  } catch {
    // Without records the next build renders every page again: slower, never wrong.
  }
}
