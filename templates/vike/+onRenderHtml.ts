import { dangerouslySkipEscape } from 'vike/server';
import type { PageContextServer } from 'vike/types';
import { renderDocument } from '../render.tsx';
import { type BuildPages, buildPageOf } from './pages.ts';

/** Vike's only job here is bundling and writing files: the document comes from renderDocument. */
export function onRenderHtml(pageContext: PageContextServer & Partial<BuildPages>) {
  const page = buildPageOf(pageContext);
  if (!page) throw new Error(`No page model for ${pageContext.urlOriginal}`);
  // The stylesheet comes in the page, as the build's own bundle writes it (cli/render/client-assets.ts); Vike adds the form's script.
  const html = renderDocument(page, { head: pageContext.head ?? '', body: '' });
  pageContext.onPageRendered?.(page.url);
  return dangerouslySkipEscape(html);
}
