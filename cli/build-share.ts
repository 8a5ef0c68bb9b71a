import type { CardModel } from '../templates/model.ts';
import type { Traced } from './incremental/memo.ts';
import type { ReadId } from './incremental/record-reads.ts';
import { recordReads } from './incremental/record-reads.ts';
import type { ClientAssets } from './render/client-assets.ts';
import type { HtmlRenderer } from './render/html-renderer.ts';
import { pageHtml } from './render/page-html.ts';
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
  /** What its share card shows, drawn by the images stage after the pages (kept in the record: a page taken over keeps its card). */
  card?: CardModel;
}

/** What every party that makes pages needs: sent once to a worker (build-worker.ts), or kept by the build's thread. */
export interface ShareSetup {
  /** The validated content (as data, for a worker: build-pages.ts): every party resolves from the same. */
  content: Content;
  settings: ResolveOptions;
  inserts: ClientAssets['inserts'];
  /** Who writes the HTML (`buildHtmlRenderer`: chosen once, by the build's thread). */
  renderer: HtmlRenderer;
  /** The staging folder the pages are written into. */
  dir: string;
}

export interface ShareResult {
  made: PageProduct[];
  /** What was read outside any page (the contexts every page is made in). */
  shared: ReadId[];
}

/**
 * A maker of shares of the pages, each named by their indexes in the site's list (`siteResolver`):
 * resolve reads the content through a view that records what each page read
 * (incremental/record-reads.ts), render returns the HTML, write writes it. Returns the small facts
 * of each page, never its model.
 */
export function shareMaker(setup: ShareSetup): (indexes: number[], onPage?: () => void) => ShareResult {
  const recorder = recordReads(setup.content, setup.settings);
  const site = siteResolver(recorder.content, createTranslator(recorder.content), recorder.settings);
  const folders = new Set<string>();
  return (indexes, onPage) => {
    const made = indexes.map((index): PageProduct => {
      const { value, reads } = recorder.frame(() => site.resolve(index));
      const { model, fallbacks } = value;
      const written = writePage(setup.dir, model.file, pageHtml(model, model.form ? setup.inserts.form : setup.inserts.static, setup.renderer), folders);
      onPage?.();
      return {
        ...written,
        reads,
        inSitemap: model.inSitemap,
        ...(model.noindex && { noindex: true }),
        ...(model.form && { form: true }),
        ...(fallbacks.length && { fallbacks }),
        ...(model.card && { card: model.card }),
      };
    });
    return { made, shared: [...recorder.shared] };
  };
}
