import { rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderDocument } from '../../templates/render.tsx';
import type { Rendered } from '../cache/page-cache.ts';
import { pageKey } from '../cache/page-key.ts';
import { ensureDir } from '../write/ensure-dir.ts';
import type { RenderBatch } from './render-pages.ts';

/**
 * Renders and writes a batch of pages (in a worker, or in the build's thread for small sites).
 * The only module of the build that loads React's server renderer and the templates.
 */
export function renderBatch(batch: RenderBatch): Rendered[] {
  const made = new Set<string>();
  return batch.pages.map((page, i) => {
    const key = batch.keys?.[i] ?? pageKey(page, batch.templateKey);
    const path = join(batch.outDir, page.file);
    ensureDir(made, path);
    // A link to the previous site's file may be there: writing into it would change the previous site.
    if (batch.replace) rmSync(path, { force: true });
    writeFileSync(path, renderDocument(page, page.form ? batch.inserts.form : batch.inserts.static));
    const st = statSync(path);
    return { file: page.file, key, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, rendered: true };
  });
}
