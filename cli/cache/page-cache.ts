import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { CACHE_DIR } from '../paths.ts';
import { cacheFolder, cachesOff, pruneCache } from './policy.ts';

const recordsFile = (dir: string, outDir: string) => join(dir, `${createHash('sha1').update(resolve(outDir)).digest('hex').slice(0, 16)}.json`);

/** What the previous build wrote for a page: the key of its inputs and the file it left. */
export interface PreviousPage {
  /** The hash of the page's model, the templates and the tags inserted (`pageKey`). */
  key: string;
  ino: number;
  size: number;
  mtimeMs: number;
}

export interface Rendered extends PreviousPage {
  file: string;
  /** False when the page's inputs were unchanged and the previous file was taken over. */
  rendered: boolean;
}

/** What the last build into an output folder knew of the site it left there. */
export interface PageRecords {
  /** The key of the templates and the tags inserted into every page (part of every page's key). */
  templateKey: string;
  pages: Record<string, PreviousPage>;
  /** The gzipped size of the page with this key (the summary's largest page, gzipped once while it is unchanged). */
  largest?: { key: string; gzipBytes: number };
}

/**
 * What the last build into `outDir` wrote for each page (the key of its model, the templates
 * and the tags inserted into it, and the file's identity), so the next build can take over the
 * pages whose key did not change. Nothing when there is no previous site, or `STUDIO_NO_CACHE=1`.
 */
export function readPageRecords(outDir: string): PageRecords | undefined {
  if (cachesOff() || !existsSync(outDir)) return undefined;
  try {
    const records = JSON.parse(readFileSync(recordsFile(join(CACHE_DIR, 'pages'), outDir), 'utf8')) as Partial<PageRecords>;
    return typeof records.templateKey === 'string' && records.pages ? (records as PageRecords) : undefined;
  } catch {
    return undefined;
  }
}

export function writePageRecords(outDir: string, rendered: Rendered[], rest: Omit<PageRecords, 'pages'>): void {
  const pages = Object.fromEntries(rendered.map(({ file, rendered: _, ...record }) => [file, record]));
  try {
    const dir = cacheFolder('pages');
    const file = recordsFile(dir, outDir);
    writeFileSync(`${file}.tmp`, JSON.stringify({ outDir: resolve(outDir), ...rest, pages }));
    renameSync(`${file}.tmp`, file);
    pruneCache(dir, 20, basename(file)); // the 20 output folders built last
  } catch {
    // Without records the next build renders every page again: slower, never wrong.
  }
}
