import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { cachesOff, folderCacheFile, storeCacheFile } from './policy.ts';

const recordsFile = (outDir: string) => folderCacheFile('pages', outDir, 'json');

/** What the previous build wrote for a page: the key of its inputs and the file it left. */
export interface PreviousPage extends Partial<PageFacts> {
  /** The hash of the page's model, the templates and the tags inserted (`pageKey`). */
  key: string;
  ino: number;
  size: number;
  mtimeMs: number;
}

/**
 * What a build needs to know of a page besides its file, for a page whose declared inputs
 * (page-inputs.ts) are the ones recorded: such a page is taken over without being resolved.
 */
export interface PageFacts {
  /** The hash of the content files and settings the page is made from (`pageInputs`). */
  inputs: string;
  /** The texts that fell back to Russian on it (translator ids), for the summary's count. */
  fallbacks?: string[];
  noindex?: true;
  inSitemap: boolean;
  /** Whether it shows the enquiry form. */
  form?: true;
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
    const records = JSON.parse(readFileSync(recordsFile(outDir), 'utf8')) as Partial<PageRecords>;
    return typeof records.templateKey === 'string' && records.pages ? (records as PageRecords) : undefined;
  } catch {
    return undefined;
  }
}

/** Writes what this build wrote into `outDir`, with the facts of each page that has declared inputs (`facts`, by file). */
export function writePageRecords(outDir: string, rendered: Rendered[], rest: Omit<PageRecords, 'pages'>, facts?: Map<string, PageFacts>): void {
  const pages = Object.fromEntries(rendered.map(({ file, rendered: _, ...record }) => [file, { ...record, ...facts?.get(file) }]));
  // The 20 output folders built last are kept. Without records the next build renders every page again: slower, never wrong.
  storeCacheFile(recordsFile(outDir), JSON.stringify({ outDir: resolve(outDir), ...rest, pages }), 20);
}
