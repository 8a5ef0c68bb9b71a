import type { Traced } from './incremental/memo.ts';
import type { ReadId } from './incremental/record-reads.ts';
import { recordReads } from './incremental/record-reads.ts';
import type { ClientAssets } from './render/client-assets.ts';
import { renderPage } from './render/render-page.ts';
import type { ResolveOptions } from './resolve/context.ts';
import { siteResolver } from './resolve/resolve.ts';
import { createTranslator } from './resolve/translator.ts';
import type { Content } from './validate/content.ts';
import { writePage } from './write/write-page.ts';

/** What the build needs of a page it made (besides its file): for the sitemap, the summary, and the next build. */
export interface PageProduct extends Traced {
  inSitemap: boolean;
  noindex?: true;
  /** Whether it shows the enquiry form. */
  form?: true;
  /** The texts that fell back to Russian on it (translator ids), for the summary's count. */
  fallbacks?: string[];
}

/** A share of the site's pages to make: sent once to a worker (build-worker.ts), or made in the build's thread. */
export interface ShareTask {
  /** The validated content as data (build-pages.ts): every party resolves from the same. */
  content: Content;
  settings: ResolveOptions;
  inserts: ClientAssets['inserts'];
  /** The staging folder the pages are written into. */
  dir: string;
  /** The pages of this share, by their index in the site's list (`siteResolver`). */
  indexes: number[];
}

export interface ShareResult {
  made: PageProduct[];
  /** What was read outside any page (the contexts every page is made in). */
  shared: ReadId[];
}

/**
 * Resolves, renders and writes a share of the pages: resolve reads the content through a view
 * that records what each page read (incremental/record-reads.ts), render returns the HTML, write
 * writes it. Returns the small facts of each page, never its model.
 */
export function buildShare(task: ShareTask, onPage?: () => void): ShareResult {
  const recorder = recordReads(task.content, task.settings);
  const site = siteResolver(recorder.content, createTranslator(recorder.content), recorder.settings);
  const folders = new Set<string>();
  const made = task.indexes.map((index): PageProduct => {
    const { value, reads } = recorder.frame(() => site.resolve(index));
    const { model, fallbacks } = value;
    const written = writePage(task.dir, model.file, renderPage(model, task.inserts), folders);
    onPage?.();
    return {
      ...written,
      reads,
      inSitemap: model.inSitemap,
      ...(model.noindex && { noindex: true }),
      ...(model.form && { form: true }),
      ...(fallbacks.length && { fallbacks }),
    };
  });
  return { made, shared: [...recorder.shared] };
}
