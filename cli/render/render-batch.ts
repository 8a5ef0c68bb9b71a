import { closeSync, fstatSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { PageModel } from '../../templates/model.ts';
import type { Rendered } from '../cache/page-cache.ts';
import { pageKey } from '../cache/page-key.ts';
import { ensureDir } from '../write/ensure-dir.ts';
import type { ClientAssets } from './client-assets.ts';
import { pageHtml } from './page-html.ts';

/** A share of the pages, for one worker (or the build's thread) to render and write. */
export interface RenderBatch {
  id: number;
  pages: PageModel[];
  /** The pages' keys, when already known (same order as `pages`). */
  keys?: string[];
  inserts: ClientAssets['inserts'];
  /** Changes whenever the compiler (templates included) or the tags inserted into the pages change. */
  templateKey: string;
  outDir: string;
  /** Whether a page's file may be there already, linked from the previous site (`linkPrevious`). */
  replace?: boolean;
}

/**
 * Renders and writes a batch of pages (in a worker, or in the build's thread for small sites).
 * The only module of the build that loads the templates.
 */
export function renderBatch(batch: RenderBatch): Rendered[] {
  const made = new Set<string>();
  return batch.pages.map((page, i) => {
    const key = batch.keys?.[i] ?? pageKey(page, batch.templateKey);
    const path = join(batch.outDir, page.file);
    ensureDir(made, path);
    // A link to the previous site's file may be there: writing into it would change the previous site.
    if (batch.replace) rmSync(path, { force: true });
    const st = writeFile(path, pageHtml(page, page.form ? batch.inserts.form : batch.inserts.static));
    return { file: page.file, key, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, rendered: true };
  });
}

/**
 * Where a page is encoded before it is written: one buffer, reused, so that a page's text is
 * encoded once (writing a string encodes it, and its size would be one more pass over it) and
 * needs no buffer of its own. A page too large for it (a home page listing thousands of
 * courses) gets one for itself. UTF-8 takes at most 3 bytes per UTF-16 code unit.
 */
const scratch = Buffer.allocUnsafe(256 * 1024);
const MAX_BYTES_PER_UNIT = 3;

/** Writes `html` to `path` and returns the file's stat (for the records), through one descriptor: no second lookup of the path. */
function writeFile(path: string, html: string) {
  const bytes = html.length * MAX_BYTES_PER_UNIT <= scratch.length ? scratch : Buffer.allocUnsafe(html.length * MAX_BYTES_PER_UNIT);
  const size = bytes.write(html);
  const fd = openSync(path, 'w');
  try {
    // A short write (rare for a file) goes on from where it stopped, as writeFileSync does.
    for (let done = 0; done < size; ) done += writeSync(fd, bytes, done, size - done);
    return fstatSync(fd);
  } finally {
    closeSync(fd);
  }
}
